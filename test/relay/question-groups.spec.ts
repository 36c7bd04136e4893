import { expect } from 'chai';
import request from 'supertest';
import { startQuestionGroup } from '../../server/commands/startQuestionGroup';
import { NotFoundError, PaymentRequiredError } from '../../server/errors';
import type { ServerFrame } from '../../server/shared/widget-protocol';
import { payingOn } from '../factories';
import { eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

type Question = Extract<ServerFrame, { t: 'question' }>;

describe('question groups in a conversation', () => {
  let widget: SetUp;
  let socket: VisitorSocket;
  let groupUid: string;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
    const ce = await widget.widget();
    await payingOn(server, 'parley_business_monthly', { accountId: ce.accountId });
    const answer = (text: string, action: string, extra: Record<string, unknown> = {}) => ({
      text,
      isQ: false,
      action,
      children: [],
      ...extra,
    });
    const tree = [
      {
        text: 'What do you need?',
        isQ: true,
        children: [
          answer('Sales', 'new', {
            children: [{ text: 'Which plan?', isQ: true, children: [answer('Pro', 'next'), answer('Business', 'form')] }],
          }),
          answer('Support', 'customResponse', { customResponseText: '<b>Check</b> our docs<script>x</script>' }),
          answer('**Billing**', 'customResponse', {
            customResponseText: '**Invoices** are in _Account_: [open it](https://app.example/account)',
          }),
          answer('Another team', ce.Uuid),
          answer('Nothing', ''),
        ],
      },
      { text: 'How did you find us?', isQ: true, children: [answer('Search', ''), answer('A friend', '')] },
    ];
    const res = await request(server.url)
      .post(`/v1/chat_endpoints/${widget.ceId}/question_groups`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({
        label: 'Triage',
        shortcut: 'triage',
        prompt: '<strong>Welcome!</strong> A few questions first.',
        auto: false,
        treeJson: JSON.stringify(tree),
      })
      .expect(200);
    groupUid = res.body.uid as string;
  });
  afterEach(() => socket?.close());

  const open = async () => {
    ({ socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Tom' } }));
    await say(socket, 'Hello');
    let id = '';
    await eventually(async () => {
      const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
      expect(conversation?.threadTs).to.not.equal('');
      id = String(conversation?._id);
    });
    return id;
  };
  const pick = (q: Question, text: string) => {
    const chosen = q.answers.find((a) => a.text === text);
    if (!chosen) throw new Error(`no answer ${text} in ${JSON.stringify(q)}`);
    socket.send({ t: 'answer', groupUid: q.groupUid, nodeId: chosen.nodeId });
  };
  const notes = async () => {
    const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId });
    return server.slack.state
      .replies(widget.channel, conversation?.threadTs ?? '')
      .filter((m) => JSON.stringify(m.blocks ?? []).includes('"context"'))
      .map((m) => m.text);
  };

  it('walks the visitor through the tree and puts each answer in the thread', async () => {
    const conversationId = await open();
    await startQuestionGroup(server.parley.relay, { conversationId, shortcut: 'triage' });
    const prompt = await socket.next('msg', (f) => f.message.from === 'operator');
    expect(prompt.message.html).to.equal('<strong>Welcome!</strong> A few questions first.');
    const first = await socket.next('question');
    expect(first.groupUid).to.equal(groupUid);
    expect(first.text).to.equal('What do you need?');
    expect(first.answers.map((a) => a.text)).to.deep.equal(['Sales', 'Support', 'Billing', 'Another team', 'Nothing']);
    expect(first.seq).to.be.greaterThan(prompt.message.seq);
    pick(first, 'Sales');
    const child = await socket.next('question', (q) => q.text === 'Which plan?');
    pick(child, 'Pro');
    const next = await socket.next('question', (q) => q.text === 'How did you find us?');
    pick(next, 'A friend');
    await eventually(async () =>
      expect(await notes()).to.deep.equal([
        ':clipboard: Question group “Triage” started.',
        ':ballot_box_with_check: What do you need? → *Sales*',
        ':ballot_box_with_check: Which plan? → *Pro*',
        ':ballot_box_with_check: How did you find us? → *A friend*',
        ':checkered_flag: Question group “Triage” finished.',
      ]),
    );
  });

  it('shows a custom response, asks for the e-mail, or notes the room the visitor chose', async () => {
    const conversationId = await open();
    await startQuestionGroup(server.parley.relay, { conversationId, shortcut: 'triage' });
    pick(await socket.next('question'), 'Support');
    const custom = await socket.next('msg', (f) => f.message.from === 'operator' && f.message.text.includes('docs'));
    expect(custom.message.html).to.equal('<b>Check</b> our docs');

    // Markdown in an answer and its custom response: formatting in the widget, plain words in the buttons and in Slack.
    await startQuestionGroup(server.parley.relay, { conversationId, uid: groupUid });
    pick(await socket.next('question'), 'Billing');
    const billing = await socket.next('msg', (f) => f.message.from === 'operator' && f.message.text.includes('Invoices'));
    expect(billing.message.text).to.equal('Invoices are in Account: open it');
    expect(billing.message.html).to.equal(
      '<strong>Invoices</strong> are in <em>Account</em>: <a href="https://app.example/account" target="_blank" rel="noopener noreferrer">open it</a>',
    );
    await eventually(async () => expect(await notes()).to.include(':ballot_box_with_check: What do you need? → *Billing*'));

    await startQuestionGroup(server.parley.relay, { conversationId, uid: groupUid });
    const again = await socket.next('question');
    pick(again, 'Sales');
    pick(await socket.next('question', (q) => q.text === 'Which plan?'), 'Business');
    await socket.next('askEmail');

    await startQuestionGroup(server.parley.relay, { conversationId, shortcut: 'triage' });
    pick(await socket.next('question'), 'Another team');
    await eventually(async () => expect((await notes()).some((t) => t.startsWith(':door: The visitor chose to chat in'))).to.equal(true));
    const assist = await server.models.ConversationAssist.findOne({ conversationId });
    expect(assist?.roomChoice).to.equal(widget.uuid);
  });

  it('refuses an answer to a question that is not waiting', async () => {
    const conversationId = await open();
    await startQuestionGroup(server.parley.relay, { conversationId, shortcut: 'triage' });
    const first = await socket.next('question');
    pick(first, 'Nothing');
    await eventually(async () => expect((await notes()).at(-1)).to.match(/finished/));
    pick(first, 'Sales');
    const error = await socket.next('error');
    expect(error.code).to.equal('bad_frame');
    expect(error.message).to.equal('No question is waiting for this answer.');
  });

  it('starts the automatic group by itself on a new conversation', async () => {
    const group = await server.models.QuestionGroup.findOne({ uid: groupUid });
    await server.models.QuestionGroup.updateOne({ _id: group?._id }, { $set: { auto: true } });
    await open();
    const question = await socket.next('question');
    expect(question.text).to.equal('What do you need?');
  });

  it('tags the conversation with the group’s tag once, as Parley, when the visitor answers its first question', async () => {
    const api = (req: request.Test) => req.set('Authorization', `Bearer ${widget.token}`);
    await api(request(server.url).put(`/v1/chat_endpoints/${widget.ceId}/update_config`))
      .send({ tags: ['billing', 'sales'] })
      .expect(200);
    const stored = await server.models.QuestionGroup.findOne({ uid: groupUid });
    const saved = await api(request(server.url).post(`/v1/chat_endpoints/${widget.ceId}/question_groups`))
      .send({ uid: groupUid, label: 'Triage', shortcut: 'triage', prompt: '', auto: true, tag: '#Sales', treeJson: stored?.treeJson })
      .expect(200);
    expect(saved.body.tag).to.equal('sales');
    const conversationId = await open();
    // The automatic group: the visitor's pre-chat choice.
    pick(await socket.next('question'), 'Sales');
    pick(await socket.next('question', (q) => q.text === 'Which plan?'), 'Pro');
    pick(await socket.next('question', (q) => q.text === 'How did you find us?'), 'A friend');
    await eventually(async () => expect((await notes()).at(-1)).to.match(/finished/));
    expect((await notes()).filter((t) => t.startsWith(':label:'))).to.deep.equal([
      ':label: Parley tagged this conversation `sales` (the visitor answered “Triage”).',
    ]);
    expect((await server.models.Conversation.findById(conversationId))?.tags).to.deep.equal(['sales']);
    const events = await server.models.InboxEvent.find({ conversationId }).lean();
    expect(events.map((e) => [e.kind, e.tag, e.byId])).to.deep.equal([['tagged', 'sales', '']]);
    await eventually(async () => {
      const c = await server.models.Conversation.findById(conversationId);
      const header = server.slack.state.message(widget.channel, c?.threadTs ?? '');
      expect(JSON.stringify(header?.blocks)).to.include('*Tags:* `sales`');
    });
  });

  it('refuses unknown groups and plans without question groups', async () => {
    const conversationId = await open();
    try {
      await startQuestionGroup(server.parley.relay, { conversationId, shortcut: 'nope' });
      expect.fail('started');
    } catch (error) {
      expect(error).to.be.instanceOf(NotFoundError);
      expect((error as Error).message).to.equal('No question group with the shortcut “nope”.');
    }
    const ce = await widget.widget();
    await payingOn(server, 'parley_basic_monthly', { accountId: ce.accountId });
    try {
      await startQuestionGroup(server.parley.relay, { conversationId, shortcut: 'triage' });
      expect.fail('started');
    } catch (error) {
      expect(error).to.be.instanceOf(PaymentRequiredError);
    }
    expect(socket.frames.filter((f) => f.t === 'question')).to.have.length(0);
  });
});
