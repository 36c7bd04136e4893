/**
 * Slack message text (mrkdwn with <…> links and mentions, &amp;-escaped) to what the widget shows: plain text,
 * and a small, safe HTML (links, bold, italics, strike, code, line breaks; everything else escaped). Escaping into
 * mrkdwn: server/shared/mrkdwn.ts; how a visitor is named: server/conversations/visitors.ts.
 */
import { replaceShortcodes } from '../emoji';
import { escapeHtml } from '../escapeHtml';
import { unescapeMrkdwn } from '../shared/mrkdwn';

/** Slack's escaping undone, and emoji shortcodes shown as the emoji the visitor would see in Slack. */
const decode = (s: string) => replaceShortcodes(unescapeMrkdwn(s));

type Piece = { text: string; href?: string };

function pieces(raw: string): Piece[] {
  const out: Piece[] = [];
  const re = /<([^>|]+)(?:\|([^>]*))?>/g;
  let last = 0;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    if (m.index > last) out.push({ text: decode(raw.slice(last, m.index)) });
    const target = m[1];
    const label = m[2] !== undefined ? decode(m[2]) : undefined;
    if (/^(https?:|mailto:)/i.test(target)) out.push({ text: label ?? unescapeMrkdwn(target), href: unescapeMrkdwn(target) });
    else if (target.startsWith('@')) out.push({ text: label ? `@${label}` : '@someone' });
    else if (target.startsWith('#')) out.push({ text: label ? `#${label}` : '#channel' });
    else if (target.startsWith('!')) out.push({ text: label ?? `@${target.slice(1).split('^')[0]}` });
    else out.push({ text: label ?? decode(target) });
    last = m.index + m[0].length;
  }
  if (last < raw.length) out.push({ text: decode(raw.slice(last)) });
  return out;
}

export function slackToText(raw: string): string {
  return pieces(raw)
    .map((p) => p.text)
    .join('');
}

/** Bare web addresses in escaped text (Slack usually wraps them in <…>, but not every client does). */
const BARE_URL = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g;

function inlineFormat(escaped: string): string {
  return (
    linkBare(escaped)
      .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,!?:;])/g, '$1<strong>$2</strong>')
      .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,!?:;])/g, '$1<em>$2</em>')
      .replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s).,!?:;])/g, '$1<s>$2</s>')
      // escapeHtml writes a backtick as &#x60; (old browsers read it as a quote).
      .replace(/&#x60;((?:(?!&#x60;)[^\n])+)&#x60;/g, '<code>$1</code>')
  );
}

function linkBare(escaped: string): string {
  // The text is escaped already: &amp; inside an address stays as it is, which is right for an href.
  return escaped.replace(BARE_URL, (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer nofollow">${url}</a>`);
}

/** Safe HTML for the widget, or '' when the text has no formatting worth it. */
export function slackToHtml(raw: string): string {
  const html = pieces(raw)
    .map((p) => {
      const text = inlineFormat(escapeHtml(p.text));
      return p.href ? `<a href="${escapeHtml(p.href)}" target="_blank" rel="noopener noreferrer nofollow">${escapeHtml(p.text)}</a>` : text;
    })
    .join('')
    .replace(/\n/g, '<br>');
  return html === escapeHtml(slackToText(raw)) ? '' : html;
}
