// Slack's mrkdwn as the Slack client shows it, for the operator page: one renderer for message text, App Home,
// modals and every text object of a block. Slack text arrives with &, < and > escaped; <…> are tokens
// (links, mentions, dates). Shortcodes come from Slack's own table (server/emoji.ts).
import { replaceShortcodes } from '../../emoji';
import { unescapeMrkdwn } from '../../shared/mrkdwn';
import { escapeHtml } from './html';

export type MrkdwnNames = {
  user(id: string): string;
  channel(id: string): string;
};

/** Placeholders for rendered tokens while the surrounding text is formatted (control characters never typed). */
const HOLE = (n: number) => `\u0001${n}\u0002`;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the placeholders are control characters nobody types
const HOLE_PATTERN = /\u0001(\d+)\u0002/g;

const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

/** `:name:` (and `:name::skin-tone-2:`) as emoji; unknown names (custom emoji) stay as typed, as in Slack. */
export function emojify(escaped: string): string {
  return replaceShortcodes(escaped, (char, name) => `<span class="emoji" role="img" aria-label="${escapeHtml(name)}">${char}</span>`);
}

const ordinal = (n: number) => {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${tail}`;
};

/** One `{token}` of Slack's date formatting, in the server's time zone (the sandbox runs where its operator sits). */
function dateToken(token: string, date: Date, now: Date): string | null {
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const relative = () => {
    const diff = Math.round((day(date) - day(now)) / 86_400_000);
    return diff === 0 ? 'today' : diff === -1 ? 'yesterday' : diff === 1 ? 'tomorrow' : null;
  };
  const month = date.toLocaleString('en-US', { month: 'long' });
  const monthShort = date.toLocaleString('en-US', { month: 'short' });
  const weekday = date.toLocaleString('en-US', { weekday: 'long' });
  const plain = `${month} ${ordinal(date.getDate())}, ${date.getFullYear()}`;
  const short = `${monthShort} ${date.getDate()}, ${date.getFullYear()}`;
  const long = `${weekday}, ${plain}`;
  switch (token) {
    case 'date_num':
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    case 'date':
      return plain;
    case 'date_short':
      return short;
    case 'date_long':
      return long;
    case 'date_pretty':
      return relative() ?? plain;
    case 'date_short_pretty':
      return relative() ?? short;
    case 'date_long_pretty':
      return relative() ?? long;
    case 'time':
      return date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
    case 'time_secs':
      return date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });
    case 'ago': {
      const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
      const past = seconds >= 0;
      const s = Math.abs(seconds);
      const [n, unit] =
        s < 60
          ? [s, 'second']
          : s < 3600
            ? [Math.round(s / 60), 'minute']
            : s < 86_400
              ? [Math.round(s / 3600), 'hour']
              : [Math.round(s / 86_400), 'day'];
      const amount = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return past ? `${amount} ago` : `in ${amount}`;
    }
    default:
      return null;
  }
}

/** `<!date^1392734382^{date_pretty} at {time}^optional_link|fallback>` as Slack shows it. */
function dateHtml(parts: string[], fallback: string | undefined, now: Date): string {
  const [, stamp = '', format = '', link] = parts;
  const seconds = Number(stamp);
  if (!Number.isFinite(seconds) || !format) return escapeHtml(fallback ?? '');
  const date = new Date(seconds * 1000);
  const text = format.replace(/\{([a-z_]+)\}/g, (whole, token: string) => dateToken(token, date, now) ?? whole);
  const shown = `<time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(text)}</time>`;
  return link && SAFE_HREF.test(link) ? `<a href="${escapeHtml(link)}" target="_blank" rel="noopener">${shown}</a>` : shown;
}

/** The HTML of one `<…>` token (its inside, still entity-encoded as Slack sends it). */
function tokenHtml(inside: string, names: MrkdwnNames, now: Date): string {
  const bar = inside.indexOf('|');
  const target = unescapeMrkdwn(bar >= 0 ? inside.slice(0, bar) : inside);
  const label = bar >= 0 ? unescapeMrkdwn(inside.slice(bar + 1)) : undefined;
  const mention = (text: string) => `<span class="mention">${escapeHtml(text)}</span>`;
  if (target.startsWith('@')) return mention(`@${label ?? names.user(target.slice(1))}`);
  if (target.startsWith('#')) return mention(`#${label ?? names.channel(target.slice(1))}`);
  if (target.startsWith('!')) {
    const parts = target.slice(1).split('^');
    const kind = parts[0] ?? '';
    if (kind === 'date') return dateHtml(parts, label, now);
    if (kind === 'here' || kind === 'channel' || kind === 'everyone') return mention(`@${kind}`);
    if (kind === 'subteam') return mention(label ?? '@group');
    return escapeHtml(label ?? `<${target}>`);
  }
  if (SAFE_HREF.test(target)) {
    const text = label ?? target.replace(/^mailto:/i, '');
    return `<a href="${escapeHtml(target)}" target="_blank" rel="noopener">${emojify(escapeHtml(text))}</a>`;
  }
  return escapeHtml(label ?? target);
}

/** Bold, italics, strike and inline code inside one line of escaped text. */
function inline(escaped: string): string {
  const codes: string[] = [];
  // escapeHtml (he) writes a backtick as &#x60;.
  const kept = escaped.replace(/&#x60;((?:(?!&#x60;)[^\n])+)&#x60;/g, (_m, code: string) => {
    codes.push(`<code>${code}</code>`);
    return `\u0003${codes.length - 1}\u0004`;
  });
  const formatted = emojify(kept)
    .replace(/(^|[\s(>"'])\*(?!\s)([^*\n]+?)\*(?=$|[\s).,!?:;<"'])/g, '$1<b>$2</b>')
    .replace(/(^|[\s(>"'])_(?!\s)([^_\n]+?)_(?=$|[\s).,!?:;<"'])/g, '$1<i>$2</i>')
    .replace(/(^|[\s(>"'])~(?!\s)([^~\n]+?)~(?=$|[\s).,!?:;<"'])/g, '$1<s>$2</s>');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the placeholders are control characters nobody types
  return formatted.replace(/\u0003(\d+)\u0004/g, (_m, i: string) => codes[Number(i)] ?? '');
}

/** Lines of formatted text: block quotes (`> `), bulleted (`• `, `- `) and numbered (`1. `) lists. */
function lines(escaped: string): string {
  const out: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
  let quote: string[] | null = null;
  const flush = () => {
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${i}</li>`).join('')}</${list.tag}>`);
    if (quote) out.push(`<blockquote>${quote.join('<br>')}</blockquote>`);
    list = null;
    quote = null;
  };
  for (const line of escaped.split('\n')) {
    const quoted = /^&gt;\s?(.*)$/.exec(line);
    const bullet = /^\s*(?:•|-|◦)\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (quoted) {
      if (list) flush();
      (quote ??= []).push(inline(quoted[1] ?? ''));
    } else if (bullet || numbered) {
      const tag = bullet ? 'ul' : 'ol';
      if (quote || (list && list.tag !== tag)) flush();
      (list ??= { tag, items: [] }).items.push(inline((bullet ?? numbered)?.[1] ?? ''));
    } else {
      flush();
      out.push(inline(line));
    }
  }
  flush();
  // Paragraph lines are joined with breaks; block elements already break.
  return out.reduce((html, part, i) => {
    if (i === 0) return part;
    const block = /^<(ul|ol|blockquote)>/.test(part) || /<\/(ul|ol|blockquote)>$/.test(out[i - 1] ?? '');
    return html + (block ? '' : '<br>') + part;
  }, '');
}

/** Safe HTML for a mrkdwn text as the Slack client renders it. */
export function renderMrkdwn(text: string, names: MrkdwnNames, now: Date = new Date()): string {
  const tokens: string[] = [];
  // Code blocks first: inside ``` nothing is formatted, but tokens still show as Slack shows them.
  const segments = (text ?? '').split(/```/);
  return segments
    .map((segment, index) => {
      const withHoles = segment.replace(/<([^<>\n]+)>/g, (_m, inside: string) => {
        tokens.push(tokenHtml(inside, names, now));
        return HOLE(tokens.length - 1);
      });
      // Slack's escaping undone, then escaped once for HTML.
      const escaped = escapeHtml(unescapeMrkdwn(withHoles));
      const isCode = index % 2 === 1 && index < segments.length - 1;
      const html = isCode ? `<pre>${escaped.replace(/^\n/, '')}</pre>` : lines(escaped);
      return html.replace(HOLE_PATTERN, (_m, i: string) => tokens[Number(i)] ?? '');
    })
    .join('');
}

/** A plain_text object: entities decoded, shortcodes as emoji unless `emoji: false`. */
export function renderPlain(text: string, emoji: boolean): string {
  const escaped = escapeHtml(unescapeMrkdwn(text ?? '')).replace(/\n/g, '<br>');
  return emoji ? emojify(escaped) : escaped;
}

/** Text for places that take no markup (select options, titles, placeholders): entities decoded, emoji as characters. */
export function plainText(text: string, emoji = true): string {
  const decoded = unescapeMrkdwn(text ?? '');
  return emoji ? replaceShortcodes(decoded) : decoded;
}

type TextObject = { type: 'mrkdwn' | 'plain_text'; text: string; emoji?: boolean; verbatim?: boolean };

function isTextObject(value: unknown): value is TextObject {
  const v = value as Partial<TextObject> | null;
  return !!v && typeof v === 'object' && (v.type === 'mrkdwn' || v.type === 'plain_text') && typeof v.text === 'string';
}

/**
 * A copy of Block Kit JSON (blocks, a view's title) in which every text object carries `html`, rendered by the
 * rules above; the page shows `html` and never renders Slack markup itself.
 */
export function withHtml<T>(value: T, names: MrkdwnNames, now: Date = new Date()): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) copy[key] = walk(child);
    if (isTextObject(node)) {
      copy.html = node.type === 'mrkdwn' ? renderMrkdwn(node.text, names, now) : renderPlain(node.text, node.emoji !== false);
      copy.plain = plainText(node.text, node.emoji !== false);
    }
    return copy;
  };
  return walk(value) as T;
}
