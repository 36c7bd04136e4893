/**
 * Visitors' answers through Mailgun's inbound webhook: a route's forward() POST in Mailgun's documented format
 * (parsed fields and attachment-N files as multipart/form-data, url-encoded without attachments, or the raw MIME
 * in body-mime when the URL ends with "mime"), signed as Mailgun signs (HMAC-SHA256 of timestamp + token under the
 * HTTP webhook signing key). Answers as Mailgun reads them: 200 taken, 406 refused for good, 401 not from Mailgun.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import nodemailer from 'nodemailer';
import request from 'supertest';
import { eventually, useRelayServer } from '../relay/helpers';
import { ANSWER, ANSWER_WITH_QUOTE, type Waiting, waitingConversation } from './helpers';

const SIGNING_KEY = `key-${randomBytes(16).toString('hex')}`;

/** Mailgun's signature fields, as its "Securing Webhooks" page describes them. */
function signed(key = SIGNING_KEY, at = Date.now()) {
  const timestamp = String(Math.floor(at / 1000));
  const token = randomBytes(25).toString('hex');
  return {
    timestamp,
    token,
    signature: createHmac('sha256', key)
      .update(timestamp + token)
      .digest('hex'),
  };
}

/** The fields of Mailgun's forward() POST for a parsed message (its documented parameter list). */
function mailgunFields(waiting: Waiting, messageId: string, overrides: Record<string, string> = {}) {
  return {
    recipient: waiting.address,
    sender: waiting.email,
    from: `Jane Doe <${waiting.email}>`,
    subject: 'Re: Alice replied to your chat',
    'body-plain': ANSWER_WITH_QUOTE,
    'stripped-text': ANSWER,
    'stripped-signature': '--\nJane Doe\nACME Corp, Oslo',
    'body-html': `<p>${ANSWER}</p>`,
    'stripped-html': `<p>${ANSWER}</p>`,
    'message-headers': JSON.stringify([
      ['Received', 'by mxa.mailgun.org with ESMTP id 5e7a; Thu, 26 Nov 2026 08:00:00 +0000'],
      ['From', `Jane Doe <${waiting.email}>`],
      ['To', waiting.address],
      ['Subject', 'Re: Alice replied to your chat'],
      ['Message-Id', `<${messageId}>`],
      ['Mime-Version', '1.0'],
      ['Content-Type', 'text/plain; charset="utf-8"'],
    ]),
    ...signed(),
    ...overrides,
  };
}

describe('visitor answers through the Mailgun inbound webhook', () => {
  const server = useRelayServer({ mail: { inbound: { mailgunSigningKey: SIGNING_KEY } } });
  let waiting: Waiting;
  beforeEach(async () => {
    waiting = await waitingConversation(server);
  });
  const visitorLines = () => server.models.Message.find({ conversationId: waiting.conversationId, kind: 'msg', from: 'visitor' }).lean();

  it('posts the answer of a signed url-encoded forward without the quote, once per Message-ID', async () => {
    const fields = mailgunFields(waiting, 'mg1@mail.example.com');
    const first = await request(server.url).post('/inbound/mailgun').type('form').send(fields).expect(200);
    expect(first.body).to.deep.equal({ outcome: 'posted' });
    const again = await request(server.url)
      .post('/inbound/mailgun')
      .type('form')
      .send({ ...fields, ...signed() })
      .expect(200);
    expect(again.body).to.deep.equal({ outcome: 'duplicate' });
    await eventually(async () => expect(waiting.thread()).to.include(ANSWER));
    expect((await visitorLines()).map((l) => l.text)).to.deep.equal(['Do you ship to Norway?', ANSWER]);
  });

  it('puts the attachments of a multipart forward into the thread once', async () => {
    const fields = mailgunFields(waiting, 'mg2@mail.example.com', { 'attachment-count': '1' });
    let post = request(server.url).post('/inbound/mailgun');
    for (const [name, value] of Object.entries(fields)) post = post.field(name, value);
    await post.attach('attachment-1', Buffer.from('Storgata 1, Oslo'), { filename: 'address.txt', contentType: 'text/plain' }).expect(200);
    await eventually(async () => expect(server.slack.state.files.filter((f) => f.name === 'address.txt')).to.have.length(1));
    const lines = await visitorLines();
    expect(lines[1]).to.include({ text: ANSWER });
    expect(lines[1].files.map((f) => f.name)).to.deep.equal(['address.txt']);
  });

  it('takes the raw MIME of a forward to a URL ending in mime, and drops an auto-reply', async () => {
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const raw = await composer.sendMail({
      from: waiting.email,
      to: waiting.address,
      subject: 'Automatic reply: out of office',
      text: 'I am away until Monday.',
      messageId: '<mg3@mail.example.com>',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    const fields = {
      recipient: waiting.address,
      sender: waiting.email,
      from: waiting.email,
      'body-mime': String(raw.message),
      ...signed(),
    };
    const answer = await request(server.url).post('/inbound/mailgun/mime').type('form').send(fields).expect(200);
    expect(answer.body).to.deep.equal({ outcome: 'autoReply' });
    expect(await visitorLines()).to.have.length(1);
    expect(await server.models.InboundMail.findOne({ messageId: 'mg3@mail.example.com' }).lean()).to.include({ outcome: 'autoReply' });
  });

  it('answers 401 to a POST Mailgun did not sign and 406 to a recipient Parley did not sign, posting nothing', async () => {
    const forged = mailgunFields(waiting, 'mg4@mail.example.com', { ...signed('key-not-mailguns') });
    const refused = await request(server.url).post('/inbound/mailgun').type('form').send(forged).expect(401);
    expect(refused.body).to.include({ Error: 'bad_signature' });
    const stranger = waiting.address.replace(/[0-9a-f](?=@)/, (d) => (d === '0' ? '1' : '0'));
    const unknown = await request(server.url)
      .post('/inbound/mailgun')
      .type('form')
      .send(mailgunFields(waiting, 'mg5@mail.example.com', { recipient: stranger }))
      .expect(406);
    expect(unknown.body).to.include({ Error: 'unknown_recipient' });
    expect(await visitorLines()).to.have.length(1);
  });

  it('refuses a replayed signature with another body and a signature older or newer than 5 minutes, posting none of them', async () => {
    const triple = signed();
    await request(server.url)
      .post('/inbound/mailgun')
      .type('form')
      .send(mailgunFields(waiting, 'mg6@mail.example.com', triple))
      .expect(200);
    const replayed = await request(server.url)
      .post('/inbound/mailgun')
      .type('form')
      .send(mailgunFields(waiting, 'mg7@mail.example.com', { ...triple, 'body-plain': 'Send the refund to IBAN NO93 8601 1117 947' }))
      .expect(401);
    expect(replayed.body).to.include({ Error: 'replayed_signature' });
    for (const at of [Date.now() - 6 * 60_000, Date.now() - 24 * 3600_000, Date.now() + 6 * 60_000]) {
      const stale = await request(server.url)
        .post('/inbound/mailgun')
        .type('form')
        .send(mailgunFields(waiting, `mg-${at}@mail.example.com`, { ...signed(SIGNING_KEY, at), 'body-plain': 'Stale answer' }))
        .expect(401);
      expect(stale.body).to.include({ Error: 'stale_signature' });
    }
    const fresh = await request(server.url)
      .post('/inbound/mailgun')
      .type('form')
      .send(
        mailgunFields(waiting, 'mg8@mail.example.com', {
          ...signed(SIGNING_KEY, Date.now() - 4 * 60_000),
          'body-plain': 'One more thing: gift wrap it.',
        }),
      )
      .expect(200);
    expect(fresh.body).to.deep.equal({ outcome: 'posted' });
    await eventually(async () => expect(waiting.thread()).to.include('One more thing: gift wrap it.'));
    expect((await visitorLines()).map((l) => l.text)).to.deep.equal(['Do you ship to Norway?', ANSWER, 'One more thing: gift wrap it.']);
    expect(waiting.thread().join('\n')).to.not.match(/IBAN|Stale answer/);
  });
});

describe('the Mailgun inbound webhook without a signing key', () => {
  const server = useRelayServer();
  it('is not there', async () => {
    await request(server.url).post('/inbound/mailgun').type('form').send({ recipient: 'x' }).expect(404);
  });
});
