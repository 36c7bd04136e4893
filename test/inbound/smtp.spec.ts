/**
 * Visitors' answers through Parley's own SMTP receiver, sent by a real SMTP client (nodemailer) over loopback: the
 * answer without quote and signature lands in the thread and the history, attachments once, each Message-ID once,
 * auto-replies and bounces dropped and counted, a recipient Parley did not sign refused at RCPT TO, an ended
 * conversation reopened (or, ended long ago, followed by a new one that links it).
 */
import { createServer } from 'node:net';
import { expect } from 'chai';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { endConversation } from '../../server/commands/endConversation';
import { startTestServer } from '../helpers/app';
import { ACME, eventually, useRelayServer, VisitorSocket } from '../relay/helpers';
import { ANSWER, ANSWER_WITH_QUOTE, OUTLOOK_REPLY, type Waiting, waitingConversation } from './helpers';

describe('visitor answers through the SMTP receiver', () => {
  const server = useRelayServer();
  let waiting: Waiting;
  let smtp: Transporter<SMTPTransport.SentMessageInfo>;

  beforeEach(async () => {
    waiting = await waitingConversation(server);
    const port = server.parley.smtpReceiver?.port;
    if (!port) throw new Error('the SMTP receiver is not running');
    // STARTTLS as a mail server would use it; the receiver's certificate is smtp-server's own test certificate.
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false } });
  });
  afterEach(() => smtp.close());

  const visitorLines = async () =>
    server.models.Message.find({ conversationId: waiting.conversationId, kind: 'msg', from: 'visitor' }).sort({ seq: 1 }).lean();
  const send = (fields: Parameters<typeof smtp.sendMail>[0]) =>
    smtp.sendMail({ from: waiting.email, to: waiting.address, subject: 'Re: Alice replied to your chat', ...fields });

  it('posts the answer without the quoted mail and the signature, in the thread and in the widget when the visitor returns', async () => {
    await send({ text: ANSWER_WITH_QUOTE, messageId: '<a1@mail.example.com>' });
    await eventually(async () => expect(waiting.thread()).to.include(ANSWER));
    const lines = await visitorLines();
    expect(lines.map((l) => l.text)).to.deep.equal(['Do you ship to Norway?', ANSWER]);
    expect(waiting.thread().join('\n')).to.not.include('Jane Doe');
    expect(waiting.thread().join('\n')).to.not.include('wrote:');

    const { socket } = await VisitorSocket.hello(server, waiting.widget.uuid, { visitorToken: waiting.visitorToken });
    await socket.next('msg', (f) => f.message.text === ANSWER && f.message.from === 'visitor');
    socket.close();
    expect(await server.models.InboundMail.findOne({ messageId: 'a1@mail.example.com' }).lean()).to.include({ outcome: 'posted' });
  });

  it('posts an Outlook answer (HTML and text, or HTML alone) without the separator line and the quoted mail', async () => {
    const { headers, html, text } = OUTLOOK_REPLY;
    await send({ subject: 'RE: Alice replied to your chat', headers, html, text, messageId: '<o1@outlook.example.com>' });
    await send({ subject: 'RE: Alice replied to your chat', headers, html, messageId: '<o2@outlook.example.com>' });
    await eventually(async () => expect(await server.models.InboundMail.countDocuments({ messageId: /outlook/ })).to.equal(2));
    await eventually(async () => expect(waiting.thread().filter((t) => t === ANSWER)).to.have.length(2));
    expect((await visitorLines()).map((l) => l.text)).to.deep.equal(['Do you ship to Norway?', ANSWER, ANSWER]);
    expect(waiting.thread().join('\n')).to.not.match(/---|___|From:|Sent:/);
  });

  it('takes each Message-ID once, and puts an attachment into the thread once', async () => {
    const mail = {
      text: ANSWER_WITH_QUOTE,
      messageId: '<a2@mail.example.com>',
      attachments: [{ filename: 'address.txt', content: 'Storgata 1, Oslo', contentType: 'text/plain' }],
    };
    await send(mail);
    await send(mail);
    await eventually(async () => expect(waiting.thread()).to.include(ANSWER));
    await eventually(async () => expect(server.slack.state.files.filter((f) => f.name === 'address.txt')).to.have.length(1));
    const lines = await visitorLines();
    expect(lines).to.have.length(2);
    expect(lines[1].files.map((f) => f.name)).to.deep.equal(['address.txt']);
    expect(await server.models.WidgetFile.countDocuments({ name: 'address.txt' })).to.equal(1);
    expect(await server.models.InboundMail.findOne({ messageId: 'a2@mail.example.com' }).lean()).to.include({ duplicates: 1 });
  });

  it('drops auto-replies and bounces and counts them, posting nothing', async () => {
    await send({
      text: 'I am out of office until Monday.',
      messageId: '<ooo@mail.example.com>',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    await send({ text: 'On holiday.', messageId: '<bulk@mail.example.com>', headers: { Precedence: 'bulk' } });
    await send({ from: 'MAILER-DAEMON@mail.example.com', text: 'Delivery failed.', messageId: '<bounce@mail.example.com>' });
    const outcomes = await server.models.InboundMail.find({ conversationId: waiting.conversationId }).sort({ messageId: 1 }).lean();
    expect(outcomes.map((o) => [o.messageId, o.outcome])).to.deep.equal([
      ['bounce@mail.example.com', 'bounce'],
      ['bulk@mail.example.com', 'autoReply'],
      ['ooo@mail.example.com', 'autoReply'],
    ]);
    expect(await visitorLines()).to.have.length(1);
  });

  it('refuses a recipient Parley did not sign at RCPT TO, with 550', async () => {
    const forged = waiting.address.replace(/[0-9a-f](?=@)/, (d) => (d === '0' ? '1' : '0'));
    const refused = await send({ to: forged, text: ANSWER }).then(
      () => null,
      (error: { responseCode?: number }) => error,
    );
    expect(refused?.responseCode).to.equal(550);
    const elsewhere = await send({ to: 'someone@example.org', text: ANSWER }).then(
      () => null,
      (error: { responseCode?: number }) => error,
    );
    expect(elsewhere?.responseCode).to.equal(550);
    expect(await visitorLines()).to.have.length(1);
  });

  it('posts an answer from another address with a visible note', async () => {
    await send({ from: 'assistant@example.org', text: ANSWER, messageId: '<other@mail.example.com>' });
    await eventually(async () =>
      expect(waiting.thread().some((t) => t.includes('This answer came by e-mail from assistant@example.org'))).to.equal(true),
    );
    expect(waiting.thread()).to.include(ANSWER);
  });

  it('reopens a conversation that ended less than 7 days ago, and says so in the thread', async () => {
    await endConversation(server.parley.relay, waiting.conversationId, 'operator');
    // The operator who answered has it (the first replier is assigned): the reopening mentions them.
    const assigneeId = (await server.models.Conversation.findById(waiting.conversationId).lean())?.assigneeId ?? '';
    await send({ text: ANSWER_WITH_QUOTE, messageId: '<reopen@mail.example.com>' });
    await eventually(async () => expect(waiting.thread()).to.include(ANSWER));
    expect(waiting.thread()).to.include(
      `The visitor answered by e-mail: the conversation is open again.${assigneeId ? ` <@${assigneeId}>` : ''}`,
    );
    const c = await server.models.Conversation.findById(waiting.conversationId).lean();
    expect(c).to.include({ status: 'open', endedAt: null });
  });

  it('starts a new conversation linking the old one when it ended more than 7 days ago', async () => {
    await endConversation(server.parley.relay, waiting.conversationId, 'operator');
    await server.models.Conversation.updateOne(
      { _id: waiting.conversationId },
      { $set: { endedAt: new Date(Date.now() - 8 * 86_400_000) } },
    );
    await send({ text: ANSWER_WITH_QUOTE, messageId: '<late@mail.example.com>' });
    let fresh: { _id: unknown; number: number; threadTs: string } | null = null;
    await eventually(async () => {
      fresh = await server.models.Conversation.findOne({ ceId: waiting.widget.ceId, _id: { $ne: waiting.conversationId } }).lean();
      expect(fresh?.threadTs).to.not.equal('');
    });
    const started = fresh as unknown as { _id: unknown; threadTs: string };
    const old = await server.models.Conversation.findById(waiting.conversationId).lean();
    expect(old?.status).to.equal('ended');
    await eventually(async () => {
      const thread = server.slack.state.replies(waiting.widget.channel, started.threadTs).map((m) => m.text);
      expect(thread).to.include(ANSWER);
      const link = thread.find((t) => t.includes('The visitor answered by e-mail to conversation #'));
      expect(link).to.match(new RegExp(`<https?://[^|>]+${waiting.threadTs.replace('.', '')}[^|>]*\\|conversation #${old?.number}>`));
    });
    expect(server.slack.state.installation(ACME)).to.not.equal(undefined);
  });
});

describe('the SMTP receiver limits', () => {
  it('refuses a mail over the size limit with 552, posting nothing', async () => {
    const server = await startTestServer({ mail: { inbound: { maxBytes: 20_000 } } });
    const smtp = nodemailer.createTransport({
      host: '127.0.0.1',
      port: server.parley.smtpReceiver?.port ?? 0,
      secure: false,
      tls: { rejectUnauthorized: false },
    });
    try {
      const waiting = await waitingConversation(server);
      const refused = await smtp
        .sendMail({
          from: waiting.email,
          to: waiting.address,
          subject: 'Re: photos',
          text: ANSWER,
          attachments: [{ filename: 'big.bin', content: Buffer.alloc(60_000, 1) }],
        })
        .then(
          () => null,
          (error: { responseCode?: number }) => error,
        );
      expect(refused?.responseCode).to.equal(552);
      expect(await server.models.Message.countDocuments({ conversationId: waiting.conversationId, from: 'visitor' })).to.equal(1);
    } finally {
      smtp.close();
      await server.slack.close();
      await server.slack.settled();
      await server.close();
    }
  });

  it('gives way to a free port when the default one is taken, but not when INBOUND_SMTP_PORT chose it', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const server = await startTestServer({ mail: { inbound: { smtpPort: port, smtpPortGiven: false } } });
      try {
        expect(server.parley.smtpReceiver?.port).to.be.a('number').and.not.equal(port);
      } finally {
        await server.close();
      }
      const refused = await startTestServer({ mail: { inbound: { smtpPort: port, smtpPortGiven: true } } }).then(
        async (server) => {
          await server.close();
          return null;
        },
        (error: NodeJS.ErrnoException) => error,
      );
      expect(refused?.code).to.equal('EADDRINUSE');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
