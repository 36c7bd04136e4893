/**
 * The mails a visitor receives, as written: in their language (French, Arabic right to left, Japanese), the owner's
 * wording for that language, dated in their locale and time zone, from the site's name in its colours, links that
 * keep their target in the plain-text part and lead where their words say in the HTML; owners' mails in the same
 * layout with a plain-text part.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { visitorMailLanguage } from '../../server/conversations/widgetLanguage';
import { createMailer } from '../../server/mail';
import { warmMailLayouts } from '../../server/mail/layout';
import { formatMailTime, receiptMail, transcriptMailMessage, unseenRepliesMail } from '../../server/mail/templates';
import { MAIL_TEXTS } from '../../server/mail/texts';
import { CHAT_ENDPOINT_DEFAULTS } from '../../server/models/ChatEndpoint';
import { mailMessageParts } from '../../server/ownerText';

const widget = { ...CHAT_ENDPOINT_DEFAULTS, RoomName: 'support', textOverrides: { fr: { onlineTitle: 'Café Northwind' } } };
const sender = (texts: { onlineTitle: string }) => ({
  name: 'Northwind',
  title: texts.onlineTitle,
  titleColor: '#7c2d12',
  titleFontColor: '#fef3c7',
});

/** A stored operator reply as Slack's formatting makes it: "our shop" leads to the shop. */
const reply = {
  who: 'Alice',
  text: 'Order here: our shop',
  html: 'Order here: <a href="https://shop.example/order" target="_blank" rel="noopener noreferrer nofollow">our shop</a>',
  files: [],
};

async function mailIn(locale: { locale?: string; timeZone?: string }) {
  const { language, texts } = visitorMailLanguage(widget, locale);
  return unseenRepliesMail({
    to: 'jane@example.com',
    sender: sender(texts),
    language,
    site: 'shop.example',
    operator: { name: 'Alice', avatarUrl: 'https://parley.example/mail/avatar/65a1b2c3d4e5f60718293a4b' },
    replies: [reply],
    context: [{ who: texts.browserSideAuthorLabel, text: 'Do you ship to Lyon?', html: '', files: [] }],
    openUrl: 'https://shop.example/pricing#parley-open=1',
    unsubscribeUrl: 'https://parley.example/mail/unsubscribe/abc',
    replyTo: 'reply+abc@parley.example',
  });
}

// MJML is loaded and the layout compiled once per process, on the first mail: not counted in a test's time.
before(async function () {
  this.timeout(30_000);
  await warmMailLayouts();
});

describe('visitor mails in the visitor language', () => {
  it('writes the missed-reply mail in French with the owner’s French title, from the site’s name in its colours', async () => {
    const mail = await mailIn({ locale: 'fr-FR', timeZone: 'Europe/Paris' });
    expect(mail.subject).to.equal('Alice a répondu à votre discussion sur shop.example');
    expect(mail.fromName).to.equal('Northwind');
    expect(mail.replyTo).to.deep.equal({ name: 'Northwind', address: 'reply+abc@parley.example' });
    expect(mail.text).to.include('Plus tôt dans la conversation');
    expect(mail.text).to.include('Vous\u00a0: Do you ship to Lyon?');
    expect(mail.html).to.include('<html lang="fr" dir="ltr"');
    expect(mail.html).to.include('Café Northwind');
    expect(mail.html).to.include('Continuer la discussion sur le site');
    expect(mail.html).to.include('#7c2d12');
    expect(mail.html).to.include('src="https://parley.example/mail/avatar/65a1b2c3d4e5f60718293a4b"');
    expect(mail.html).to.not.include('data:image');
    expect(mail.html).to.not.match(/Earlier in the conversation|Continue the chat/);
  });

  it('keeps French punctuation on its word and writes Japanese colons full width, in the words and between a name and a line', async () => {
    const loose = Object.values(MAIL_TEXTS.fr).filter((text) => / [!?;:»]|« /.test(text));
    expect(loose).to.deep.equal([]);
    const french = await mailIn({ locale: 'fr-FR' });
    expect(french.text).to.include('Alice a répondu\u00a0:\n');
    expect(french.html).to.include('<strong>Vous</strong>\u00a0: <span dir="auto">');
    const japanese = await mailIn({ locale: 'ja' });
    expect(japanese.text).to.include('Alice からの返信：\n');
    expect(japanese.text).to.include('あなた：Do you ship to Lyon?');
    expect(japanese.text).to.not.match(/[ぁ-んァ-ン一-龯]:/);
  });

  it('writes it right to left in Arabic and in Japanese, and in English for a language the widget has not', async () => {
    const arabic = await mailIn({ locale: 'ar-EG' });
    expect(arabic.html).to.include('<html lang="ar" dir="rtl"');
    expect(arabic.html).to.include('متابعة المحادثة على الموقع');
    expect(arabic.subject).to.equal('ردّ Alice على محادثتك في shop.example');
    const japanese = await mailIn({ locale: 'ja' });
    expect(japanese.subject).to.equal('shop.example でのチャットに Alice が返信しました');
    expect(japanese.text).to.include('これまでの会話');
    const unknown = await mailIn({ locale: 'sw' });
    expect(unknown.subject).to.equal('Alice replied to your chat on shop.example');
  });

  it('dates a transcript in the visitor’s locale and time zone, not in raw UTC', async () => {
    const { language, texts } = visitorMailLanguage(widget, { locale: 'fr-FR', timeZone: 'Europe/Paris' });
    const mail = await transcriptMailMessage({
      to: 'jane@example.com',
      sender: sender(texts),
      language,
      name: 'Northwind',
      number: 12,
      lines: [{ who: 'Vous', text: 'Bonjour', html: '', files: [], at: new Date('2026-11-27T17:00:00Z') }],
    });
    expect(mail.subject).to.equal('Transcription de votre discussion avec Northwind (n° 12)');
    expect(mail.text).to.include('[27 nov. 2026, 18:00 UTC+1] Vous\u00a0: Bonjour');
    expect(mail.text).to.not.include('17:00 UTC]');
    expect(mail.fromName).to.equal('Northwind');
    const newYork = formatMailTime(new Date('2026-11-27T17:00:00Z'), { formatLocale: 'en-US', timeZone: 'America/New_York' });
    expect(newYork).to.equal('Nov 27, 2026, 12:00 PM EST');
    // An unknown time zone is UTC, said so.
    expect(visitorMailLanguage(widget, { locale: 'de', timeZone: 'Mars/Olympus' }).language.timeZone).to.equal('UTC');
  });
});

describe('links in mails', () => {
  it('keeps the target of a link in the plain-text part', async () => {
    const mail = await mailIn({ locale: 'en' });
    expect(mail.text).to.include('Order here: our shop (https://shop.example/order)');
    expect(mail.html).to.include('<a href="https://shop.example/order"');
  });

  it('points a link whose words are an address to that address, and writes it once in the text', () => {
    const parts = mailMessageParts(
      'Pay at <a href="https://evil.example/phish">https://bank.example/pay</a> or <a href="https://shop.example/">https://shop.example</a>',
    );
    expect(parts.html).to.include('<a href="https://bank.example/pay"');
    expect(parts.html).to.not.include('evil.example');
    expect(parts.text).to.equal('Pay at https://bank.example/pay or https://shop.example');
    const mailto = mailMessageParts('Write to <a href="mailto:help@shop.example">help@shop.example</a>');
    expect(mailto.text).to.equal('Write to help@shop.example');
    const script = mailMessageParts('<a href="javascript:alert(1)">click</a><script>x</script> <b>bold</b>');
    expect(script.html).to.equal('click <b>bold</b>');
  });
});

describe('owner mails', () => {
  it('sends a receipt in the same layout as the visitors’ mails, with its plain-text part', async () => {
    const mail = await receiptMail('owner@example.com', {
      amount: '$29.00',
      paidOn: 'November 27, 2026',
      description: 'Pro plan <monthly>',
      number: 'INV-1',
      invoiceUrl: 'https://invoice.example/1',
    });
    expect(mail.html).to.match(/^<!doctype html>/i);
    expect(mail.html).to.include('name="viewport"');
    expect(mail.html).to.include('Pro plan &lt;monthly&gt;');
    expect(mail.html).to.include('View the invoice');
    expect(mail.text).to.include('Amount paid: $29.00');
    expect(mail.text).to.include('https://invoice.example/1');
  });

  it('sends a visitor mail from the sender name at the deployment’s address', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parley-outbox-'));
    const mailer = createMailer({ from: 'Parley <no-reply@parley.example>', outboxDir: dir });
    try {
      await mailer.send(await mailIn({ locale: 'fr' }));
      const [sent] = (await mailer.outbox?.list()) ?? [];
      expect(sent?.from).to.equal('Northwind <no-reply@parley.example>');
      const eml = readFileSync(path.join(dir, `${sent?.id}.eml`), 'utf8');
      expect(eml).to.match(/^From: Northwind <no-reply@parley\.example>$/m);
      expect(eml).to.match(/^Reply-To: Northwind <reply\+abc@parley\.example>$/m);
    } finally {
      mailer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
