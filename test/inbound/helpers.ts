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

/**
 * Outlook's answer (Outlook on the web and the new Outlook for Windows): the HTML puts the quote after an `<hr>`, in
 * `<div id="divRplyFwdMsg">` with a From/Sent/To/Subject block; the plain part it writes puts 32 underscores there.
 */
export const OUTLOOK_REPLY = {
  headers: {
    'Thread-Topic': 'Alice replied to your chat',
    'Thread-Index': 'AQHbPp3kqg7e8q4m0kGz1Yp1c3fQ9A==',
    'Content-Language': 'en-GB',
    'X-MS-Has-Attach': '',
    'X-MS-TNEF-Correlator': '',
    msip_labels: '',
  },
  html: `<html><head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<style type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style>
</head>
<body dir="ltr">
<div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont, Aptos_MSFontService, Calibri, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">
${ANSWER}</div>
<div id="appendonsend"></div>
<hr style="display:inline-block;width:98%" tabindex="-1">
<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt" color="#000000"><b>From:</b> ACME &lt;no-reply@localhost&gt;<br>
<b>Sent:</b> Tuesday, November 24, 2026 10:00 AM<br>
<b>To:</b> jane@example.com &lt;jane@example.com&gt;<br>
<b>Subject:</b> Alice replied to your chat</font>
<div>&nbsp;</div>
</div>
<div>
<p>Alice replied to your chat:</p>
<p>Yes, in 3 days.</p>
<p><a href="http://localhost/chat">Continue the chat on the website</a></p>
</div>
</body>
</html>`,
  text: [
    ANSWER,
    '',
    '________________________________',
    'From: ACME <no-reply@localhost>',
    'Sent: Tuesday, November 24, 2026 10:00 AM',
    'To: jane@example.com <jane@example.com>',
    'Subject: Alice replied to your chat',
    '',
    'Alice replied to your chat:',
    'Yes, in 3 days.',
    'Continue the chat on the website<http://localhost/chat>',
    '',
  ].join('\r\n'),
};
