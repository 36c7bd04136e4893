import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createMailer, type Mailer } from '../../server/mail';
import { passwordResetMail } from '../../server/mail/templates';

describe('the local mail outbox', () => {
  let dir: string;
  let mailer: Mailer;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-outbox-'));
    mailer = createMailer({ from: 'Parley <no-reply@localhost>', outboxDir: dir });
  });
  afterEach(() => {
    mailer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes each mail as JSON and as an .eml file a mail client can open', async () => {
    await mailer.send(await passwordResetMail('ada@example.com', 'http://localhost:3000/app/#/reset_password?token=abc', 60));
    const files = readdirSync(dir).sort();
    expect(files.filter((f) => f.endsWith('.json'))).to.have.length(1);
    const eml = readFileSync(path.join(dir, files.find((f) => f.endsWith('.eml')) ?? ''), 'utf8');
    expect(eml).to.contain('Subject: Reset your Parley password');
    expect(eml).to.contain('To: ada@example.com');
    expect(eml).to.contain('From: Parley <no-reply@localhost>');
  });

  it('lists mails newest first, with the links of their text without trailing punctuation', async () => {
    await mailer.send({ to: 'a@example.com', subject: 'first', text: 'see https://example.com/one', html: '<p>one</p>' });
    await mailer.send({
      to: 'b@example.com',
      subject: 'second',
      text: 'see https://example.com/two and http://example.com/three.',
      html: '<p>two</p>',
    });
    const mails = await mailer.outbox?.list();
    expect(mails?.map((m) => m.subject)).to.deep.equal(['second', 'first']);
    expect(mails?.[0]?.links).to.deep.equal(['https://example.com/two', 'http://example.com/three']);
  });

  it('finds the latest mail to an address whatever its case', async () => {
    await mailer.send({ to: 'ada@example.com', subject: 'old', text: '', html: '' });
    await mailer.send({ to: 'bob@example.com', subject: 'other', text: '', html: '' });
    await mailer.send({ to: 'ada@example.com', subject: 'new', text: '', html: '' });
    expect((await mailer.outbox?.latestTo('ADA@example.com'))?.subject).to.equal('new');
    expect(await mailer.outbox?.latestTo('carol@example.com')).to.equal(undefined);
  });

  it('lists nothing before the first mail', async () => {
    expect(await createMailer({ from: 'x <x@y.z>', outboxDir: path.join(dir, 'not-yet') }).outbox?.list()).to.deep.equal([]);
  });
});

describe('mail through SMTP', () => {
  it('delivers to the SMTP server of SMTP_URL and writes no outbox', async () => {
    const received: string[] = [];
    const smtp = net.createServer((socket) => {
      let inData = false;
      let buffer = '';
      socket.write('220 localhost test SMTP\r\n');
      socket.on('data', (chunk) => {
        buffer += chunk.toString('utf8');
        let end: number;
        while ((end = inData ? buffer.indexOf('\r\n.\r\n') : buffer.indexOf('\r\n')) !== -1) {
          if (inData) {
            received.push(buffer.slice(0, end));
            buffer = buffer.slice(end + 5);
            inData = false;
            socket.write('250 queued\r\n');
            continue;
          }
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^(EHLO|HELO)/i.test(line)) socket.write('250 localhost\r\n');
          else if (/^DATA/i.test(line)) {
            inData = true;
            socket.write('354 go ahead\r\n');
          } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
          else socket.write('250 ok\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.address() as net.AddressInfo;
    const outboxDir = mkdtempSync(path.join(tmpdir(), 'parley-outbox-'));
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Parley <no-reply@localhost>', outboxDir });
    try {
      expect(mailer.outbox).to.equal(undefined);
      await mailer.send({ to: 'ada@example.com', subject: 'Over the wire', text: 'hello', html: '<p>hello</p>' });
      expect(received).to.have.length(1);
      expect(received[0]).to.contain('Subject: Over the wire');
      expect(readdirSync(outboxDir)).to.deep.equal([]);
    } finally {
      mailer.close();
      smtp.close();
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});
