import { expect } from 'chai';
import { Types } from 'mongoose';
import { answerScreenshot, requestScreenshot, screenshotPending } from '../../server/commands/screenshots';
import { useChat } from './chat';

const DECLINED = ':no_entry_sign: The visitor declined the screenshot request.';
const UNSUPPORTED = ':warning: The visitor allowed the screenshot, but their browser could not take one of this page.';

describe('screenshots', () => {
  const { server, at, conversation, thread } = useChat();
  const relay = () => server.parley.relay;

  /** Asks the visitor of the chat for a screenshot as operator U0ALICE001; answers the request's id as the widget saw it. */
  const ask = async () => {
    const c = await conversation();
    await requestScreenshot(relay(), c, 'U0ALICE001');
    const frame = await at.chat.socket.next('screenshot');
    return { c, id: String(frame.id) };
  };

  it('shows the request on the widget and keeps it in the history, waiting for its answer', async () => {
    const { c, id } = await ask();
    const stored = await server.models.Message.findById(id).lean();
    expect(stored).to.deep.include({ kind: 'screenshot', from: 'system', slackUserId: 'U0ALICE001' });
    expect(String(stored?.conversationId)).to.equal(at.chat.id);
    expect(stored).to.not.have.property('answer');
    expect(await screenshotPending(server.models, c.visitorId, id)).to.equal(true);
  });

  it('takes one answer only: a refusal is said in the thread once, a later answer (another tab) changes nothing', async () => {
    const { c, id } = await ask();
    expect(await answerScreenshot(relay(), c.visitorId, id, 'declined')).to.equal(true);
    expect(await answerScreenshot(relay(), c.visitorId, id, 'unsupported')).to.equal(false);
    expect(await answerScreenshot(relay(), c.visitorId, id, 'sent')).to.equal(false);
    expect((await server.models.Message.findById(id).lean())?.answer).to.equal('declined');
    expect(await screenshotPending(server.models, c.visitorId, id)).to.equal(false);
    await thread((texts) => expect(texts).to.include(DECLINED));
    await server.slack.settled();
    const texts = server.slack.state.replies(at.widget.channel, at.chat.threadTs).map((m) => m.text ?? '');
    expect(texts.filter((t) => t === DECLINED)).to.have.length(1);
    expect(texts).to.not.include(UNSUPPORTED);
  });

  it('says in the thread when the browser could not take the picture; a sent picture adds no note of its own', async () => {
    const first = await ask();
    expect(await answerScreenshot(relay(), first.c.visitorId, first.id, 'unsupported')).to.equal(true);
    await thread((texts) => expect(texts).to.include(UNSUPPORTED));
    const second = await ask();
    expect(await answerScreenshot(relay(), second.c.visitorId, second.id, 'sent')).to.equal(true);
    expect((await server.models.Message.findById(second.id).lean())?.answer).to.equal('sent');
    await server.slack.settled();
    const texts = server.slack.state.replies(at.widget.channel, at.chat.threadTs).map((m) => m.text ?? '');
    expect(texts.filter((t) => t === UNSUPPORTED)).to.have.length(1);
    expect(texts).to.not.include(DECLINED);
  });

  it("refuses another visitor's answer, unknown and malformed ids, and ids of messages that are not requests", async () => {
    const { c, id } = await ask();
    const stranger = new Types.ObjectId();
    expect(await screenshotPending(server.models, stranger, id)).to.equal(false);
    expect(await answerScreenshot(relay(), stranger, id, 'declined')).to.equal(false);
    for (const bad of ['not-an-id', String(new Types.ObjectId()), '']) {
      expect(await screenshotPending(server.models, c.visitorId, bad)).to.equal(false);
      expect(await answerScreenshot(relay(), c.visitorId, bad, 'declined')).to.equal(false);
    }
    const line = await server.models.Message.findOne({ conversationId: c._id, kind: 'msg', from: 'visitor' }).lean();
    expect(await screenshotPending(server.models, c.visitorId, String(line?._id))).to.equal(false);
    expect(await answerScreenshot(relay(), c.visitorId, String(line?._id), 'declined')).to.equal(false);
    // The visitor's own request still waits for them.
    expect(await screenshotPending(server.models, c.visitorId, id)).to.equal(true);
    await server.slack.settled();
    expect(server.slack.state.replies(at.widget.channel, at.chat.threadTs).map((m) => m.text)).to.not.include(DECLINED);
  });
});
