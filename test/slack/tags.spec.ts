import { expect } from 'chai';
import { helpText } from '../../server/slack/listeners/parley';
import { ACME, ALICE, BOB, eventually, type SetUp, useRelayServer } from '../relay/helpers';
import { type Chat, openChat, parley, setUpRelayWidget } from './operatorHelpers';

describe('Tags in Slack: /parley tag and untag, the header picker', () => {
  let widget: SetUp;
  let chat: Chat;
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.setPresence(ALICE, 'active');
    widget = await setUpRelayWidget(server);
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { tags: ['billing', 'refund', 'bug'] } });
    chat = await openChat(server, widget);
  });
  afterEach(() => chat.socket.close());

  const header = () => server.slack.state.message(widget.channel, chat.threadTs);
  const headerJson = () => JSON.stringify(header()?.blocks ?? []);
  const tagsOf = async () => (await server.models.Conversation.findById(chat.id))?.tags ?? [];
  const threadText = () =>
    server.slack.state
      .replies(widget.channel, chat.threadTs)
      .map((m) => JSON.stringify(m.blocks ?? m.text))
      .join('\n');
  const events = () => server.models.InboxEvent.find({ conversationId: chat.id }).sort({ _id: 1 }).lean();
  const pick = (who: string, values: string[]) =>
    server.slack.sendBlockAction({
      teamId: ACME,
      userId: who,
      actionId: 'conversation_tags',
      value: values.join(','),
      message: { channelId: widget.channel, ts: chat.threadTs },
    });

  it('adds tags by command, shows them in the header, notes them in the thread, records them, and removes them with untag', async () => {
    expect(headerJson()).to.include('*Tags:* none').and.include('multi_static_select');
    const added = await parley(server, widget.channel, `tag ${chat.number} Billing refund`);
    expect(added.text).to.include('Its tags now: `billing`, `refund`').and.include(`/parley untag ${chat.number} billing`);
    expect(await tagsOf()).to.deep.equal(['billing', 'refund']);
    await eventually(async () => expect(headerJson()).to.include('*Tags:* `billing` `refund`'));
    await eventually(async () => expect(threadText()).to.include(`<@${ALICE}> tagged this conversation \`billing\`, \`refund\``));
    const removed = await parley(server, widget.channel, `untag ${chat.number} billing`);
    expect(removed.text).to.include('Its tags now: `refund`');
    await eventually(async () => expect(headerJson()).to.include('*Tags:* `refund`'));
    await eventually(async () => expect(threadText()).to.include('removed the tag `billing`'));
    expect((await events()).map((e) => [e.kind, e.tag, e.byId])).to.deep.equal([
      ['tagged', 'billing', ALICE],
      ['tagged', 'refund', ALICE],
      ['untagged', 'billing', ALICE],
    ]);
  });

  it('refuses a tag the widget does not have, listing its tags, and changes nothing; says how to give the tags', async () => {
    const refused = await parley(server, widget.channel, `tag ${chat.number} billing shipping`);
    expect(refused.text).to.include('`shipping` is not a tag of this widget, so nothing changed').and.include('`billing`, `refund`, `bug`');
    const noWords = await parley(server, widget.channel, `tag ${chat.number}`);
    expect(noWords.text).to.include('`/parley tag 12 billing refund`');
    const notThere = await parley(server, widget.channel, `untag ${chat.number} bug`);
    expect(notThere.text).to.include('has no tag `bug`, so nothing changed');
    expect(helpText()).to.include('/parley untag N billing');
    expect(await tagsOf()).to.deep.equal([]);
    expect(await events()).to.have.length(0);
  });

  it('two operators picking tags on the header at once both count, once each, and the header ends with both', async () => {
    await server.slack.joinChannel({ teamId: ACME, userId: BOB, channelId: widget.channel });
    const [a, b] = await Promise.all([pick(ALICE, ['billing']), pick(BOB, ['bug'])]);
    expect(a.ok && b.ok).to.equal(true);
    await eventually(async () => expect((await tagsOf()).slice().sort()).to.deep.equal(['billing', 'bug']));
    await eventually(async () => expect(headerJson()).to.match(/\*Tags:\* `(billing` `bug|bug` `billing)`/));
    const kinds = (await events()).map((e) => `${e.kind} ${e.tag} ${e.byId}`).sort();
    expect(kinds).to.deep.equal([`tagged billing ${ALICE}`, `tagged bug ${BOB}`]);
    // Unselecting in the picker removes the tag; picking the same again changes nothing.
    await eventually(async () => expect(headerJson()).to.include('"initial_options"'));
    await pick(ALICE, ['bug']);
    await eventually(async () => expect(await tagsOf()).to.deep.equal(['bug']));
    await eventually(async () => expect(headerJson()).to.include('*Tags:* `bug`'));
    await pick(ALICE, ['bug']);
    expect((await events()).filter((e) => e.kind === 'untagged')).to.have.length(1);
  });

  it('tells a non-member of the channel why the picker did nothing', async () => {
    await pick(BOB, ['billing']);
    await eventually(async () =>
      expect(server.slack.state.ephemeralsFor(ACME, BOB, widget.channel).at(-1)?.text).to.include(`Only members of <#${widget.channel}>`),
    );
    expect(await tagsOf()).to.deep.equal([]);
  });
});
