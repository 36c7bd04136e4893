/**
 * The one layout of every mail Parley sends (visitors' and owners'): a header in the sender's colours, the body, an
 * optional button and a small footer, responsive from a phone's width to a desktop client's. Written in MJML, which
 * turns it into the table HTML mail clients need; each of its four variants (direction × button) is compiled once
 * per process (main.ts warms them at start) and then only filled in: the fillings are HTML made by the templates,
 * whose every visitor or owner text went through escapeHtml.
 */
import { escapeHtml } from '../escapeHtml';

export type MailLayout = {
  /** The mail's language and direction (html lang/dir). */
  lang: string;
  dir: 'ltr' | 'rtl';
  /** The header's colours (the widget's title colours, or Parley's for owner mails): #rgb or #rrggbb. */
  color: string;
  fontColor: string;
  /** The header's text (the widget's title, or "Parley"). */
  header: string;
  /** What mail clients show beside the subject in a list (plain text). */
  preview: string;
  /** The body: HTML, every piece of text in it escaped by the template. */
  body: string;
  /** A call to action under the body. */
  button?: { label: string; url: string };
  /** Under the button: HTML, escaped by the template. */
  after?: string;
  /** The small print under the card: HTML, escaped by the template. */
  footer: string;
};

/** Stand-ins compiled into the skeleton, replaced by each mail's own (they are valid colours, so MJML keeps them). */
const COLOR = '#010203';
const FONT_COLOR = '#040506';
const SLOTS = ['LANG', 'TITLE', 'PREVIEW', 'HEADER', 'BODY', 'BUTTON', 'HREF', 'AFTER', 'FOOTER'] as const;
type Slot = (typeof SLOTS)[number];
const slot = (name: Slot) => `%%PARLEY_${name}%%`;

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

function skeleton(dir: 'ltr' | 'rtl', withButton: boolean): string {
  const align = dir === 'rtl' ? 'right' : 'left';
  return `<mjml lang="${slot('LANG')}" dir="${dir}">
  <mj-head>
    <mj-title>${slot('TITLE')}</mj-title>
    <mj-preview>${slot('PREVIEW')}</mj-preview>
    <mj-attributes>
      <mj-all font-family="${FONT}" />
      <mj-text font-size="15px" line-height="1.5" color="#1d1c1d" align="${align}" padding="0 24px" />
      <mj-section padding="0" direction="${dir}" text-align="${align}" />
      <mj-column direction="${dir}" />
    </mj-attributes>
    <mj-style>
      .parley-body a { color: #1d4ed8; }
      .parley-body p { margin: 0 0 12px; }
      .parley-body blockquote { margin: 0 0 12px; padding: 0 12px; border-${align}: 3px solid #d0d7de; color: #444; }
      .parley-foot a { color: #6b7280; }
    </mj-style>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section padding="24px 0 0"><mj-column></mj-column></mj-section>
    <mj-section background-color="${COLOR}" border-radius="10px 10px 0 0" padding="16px 0">
      <mj-column>
        <mj-text color="${FONT_COLOR}" font-size="18px" font-weight="600" line-height="1.3">${slot('HEADER')}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="20px 0 8px">
      <mj-column>
        <mj-text css-class="parley-body">${slot('BODY')}</mj-text>
${
  withButton
    ? `        <mj-button background-color="${COLOR}" color="${FONT_COLOR}" href="${slot('HREF')}" align="${align}" border-radius="6px" font-size="15px" font-weight="600" inner-padding="11px 18px" padding="8px 24px 4px">${slot('BUTTON')}</mj-button>\n`
    : ''
}      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" border-radius="0 0 10px 10px" padding="8px 0 20px">
      <mj-column>
        <mj-text css-class="parley-body" font-size="13px" color="#4b5563">${slot('AFTER')}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="12px 0 24px">
      <mj-column>
        <mj-text css-class="parley-foot" font-size="12px" color="#6b7280" align="center">${slot('FOOTER')}</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

type Variant = `${'ltr' | 'rtl'}-${'button' | 'plain'}`;
const compiled = new Map<Variant, Promise<string>>();

async function compile(dir: 'ltr' | 'rtl', withButton: boolean): Promise<string> {
  // Loaded on the first mail (or by warmMailLayouts at start), not by every process that imports a template.
  const { default: mjml2html } = await import('mjml');
  // No web fonts: MJML links Google's Roboto by default, which mail clients fetch from a third party (and CSPs refuse).
  const result = await mjml2html(skeleton(dir, withButton), { validationLevel: 'strict', minify: false, fonts: {} });
  return result.html;
}

function layoutOf(dir: 'ltr' | 'rtl', withButton: boolean): Promise<string> {
  const key: Variant = `${dir}-${withButton ? 'button' : 'plain'}`;
  let html = compiled.get(key);
  if (!html) {
    html = compile(dir, withButton);
    // A failed compile is tried again by the next mail rather than remembered.
    html.catch(() => compiled.delete(key));
    compiled.set(key, html);
  }
  return html;
}

/** Compiles every variant now, so the first mail does not wait for MJML. */
export async function warmMailLayouts(): Promise<void> {
  await Promise.all([layoutOf('ltr', true), layoutOf('ltr', false), layoutOf('rtl', true), layoutOf('rtl', false)]);
}

/** Only a #rgb or #rrggbb colour reaches a style attribute; anything else falls back. */
export function mailColour(value: string, fallback: string): string {
  return /^#(?:[0-9a-f]{3}){1,2}$/i.test(value) ? value : fallback;
}

/** The mail's HTML: the compiled layout with this mail's colours, texts and button. */
export async function renderMailLayout(mail: MailLayout): Promise<string> {
  const template = await layoutOf(mail.dir, !!mail.button);
  const fillings: Record<Slot, string> = {
    LANG: escapeHtml(mail.lang),
    TITLE: escapeHtml(mail.header),
    PREVIEW: escapeHtml(mail.preview),
    HEADER: escapeHtml(mail.header),
    BODY: mail.body,
    BUTTON: escapeHtml(mail.button?.label ?? ''),
    HREF: escapeHtml(mail.button?.url ?? ''),
    AFTER: mail.after ?? '',
    FOOTER: mail.footer,
  };
  const colours: Record<string, string> = {
    [COLOR]: mailColour(mail.color, '#2f6fed'),
    [FONT_COLOR]: mailColour(mail.fontColor, '#ffffff'),
  };
  // One pass: a filling that happens to contain a slot's name or a stand-in colour is never filled in again.
  return template.replace(/%%PARLEY_([A-Z]+)%%|#010203|#040506/gi, (whole, name?: string) =>
    name ? (fillings[name as Slot] ?? whole) : (colours[whole.toLowerCase()] ?? whole),
  );
}
