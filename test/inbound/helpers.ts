/** A conversation waiting for the visitor's answer by mail: a widget, a visitor with an e-mail address, a thread. */
import { expect } from 'chai';
import type { Types } from 'mongoose';
import { replyAddress } from '../../server/conversations/mailTokens';
import type { TestServer } from '../helpers/app';
import { ACME, ALICE, eventually, type SetUp, say, setUpRelayWidget, VisitorSocket } from '../relay/helpers';

export type Waiting = {
  widget: SetUp;
  email: string;
  visitorToken: string;
  conversationId: Types.ObjectId;
  threadTs: string;
  /** reply+<token>@<INBOUND_MAIL_DOMAIN> of this conversation. */
  address: string;
  /** Slack's view of the thread: every post's text. */
  thread(): string[];
};

export async function waitingConversation(server: TestServer): Promise<Waiting> {
  const widget = await setUpRelayWidget(server);
  const email = `jane.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
  const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
  socket.send({ t: 'info', email });
  await say(socket, 'Do you ship to Norway?');
  let threadTs = '';
  await eventually(async () => {
    const c = await server.models.Conversation.findOne({ ceId: widget.ceId });
    expect(c?.threadTs).to.not.equal('');
    threadTs = c?.threadTs ?? '';
  });
  await server.slack.postAsUser({ teamId: ACME, userId: ALICE, channelId: widget.channel, threadTs, text: 'Yes, in 3 days.' });
  await socket.next('msg', (f) => f.message.from === 'operator');
  socket.close();
  const c = await server.models.Conversation.findOne({ ceId: widget.ceId }).lean();
  if (!c) throw new Error('no conversation');
  return {
    widget,
    email,
    visitorToken: welcome.visitorToken,
    conversationId: c._id,
    threadTs,
    address: replyAddress(server.config.jwtSecret, server.config.mail.inbound.domain, { conversationId: c._id, visitorId: c.visitorId }),
    thread: () => server.slack.state.replies(widget.channel, threadTs).map((m) => m.text),
  };
}

/** The visitor's answer as a mail client writes it: the answer, a signature, the quoted mail. */
export const ANSWER = 'Great, please send it to Oslo.';
export const ANSWER_WITH_QUOTE = [
  ANSWER,
  '',
  '--',
  'Jane Doe',
  'ACME Corp, Oslo',
  '',
  'On Tue, 24 Nov 2026 at 10:00, Parley <no-reply@localhost> wrote:',
  '> Alice replied to your chat:',
  '> Yes, in 3 days.',
  '',
].join('\n');
