/**
 * Texts an owner writes for visitors (saved replies, a question group's prompt and custom responses) accept the
 * common Markdown forms — `**bold**`, `_italic_`, `[label](https://…)`, bare links, line breaks — and, from before,
 * the tags a, strong, b, em, i and br. Each text is parsed once (markdown-it, inline rules only) into a small
 * sanitised HTML (sanitize-html), and every destination is converted from that one form: the widget and the
 * transcript mail get the HTML (and its plain text), Slack gets mrkdwn whose every text piece goes through
 * escapeMrkdwn (read with htmlparser2).
 */
import he from 'he';
import { Parser } from 'htmlparser2';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { escapeHtml } from './escapeHtml';
import { escapeMrkdwn } from './shared/mrkdwn';

/** The tags an owner's text may end up with, and their only attribute. */
const ALLOWED_TAGS = ['a', 'strong', 'b', 'em', 'i', 'br'];
const SAFE_SCHEMES = ['http', 'https', 'mailto'];

// Inline Markdown only: no headings, lists or images in a chat bubble. Raw HTML passes through to sanitize-html,
// which keeps the allowed tags (texts written before Markdown was accepted) and drops the rest.
const markdown = new MarkdownIt('zero', { html: true, breaks: true, linkify: true }).enable([
  'emphasis',
  'link',
  'autolink',
  'linkify',
  'newline',
  'escape',
  'entity',
  'html_inline',
  'backticks',
]);

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: SAFE_SCHEMES,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
};

/** An owner's text (Markdown, or the allowed tags) as the small sanitised HTML the widget and mails show. */
export function ownerTextHtml(text: string): string {
  // `code` spans are shown as their words (a chat bubble has no code style to keep).
  // A line break is the <br> alone (markdown-it keeps the newline after it, which would count twice as text).
  const rendered = markdown
    .renderInline(text.replace(/\r\n?/g, '\n'))
    .replace(/<\/?code>/g, '')
    .replace(/<br\s*\/?>\n/g, '<br>');
  return sanitizeHtml(rendered, SANITIZE);
}

/** Sanitised HTML (already in the allowed subset) as plain text: tags gone, line breaks kept, entities decoded. */
export function plainOfHtml(html: string): string {
  return he.decode(sanitizeHtml(html.replace(/<br\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} }));
}

/** An owner's text as plain words, without Markdown's markers: for a button label or a line in Slack. */
export function ownerTextPlain(text: string): string {
  return plainOfHtml(ownerTextHtml(text));
}

/**
 * A stored message's HTML made safe once more before it goes into a mail: an owner's text (the tags above) or an
 * operator's Slack formatting (server/slack/slackText.ts adds strikes and code).
 */
export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, { ...SANITIZE, allowedTags: [...ALLOWED_TAGS, 's', 'del', 'code'] });
}

/**
 * Sanitised HTML as Slack mrkdwn: bold as *…*, italics as _…_, links as <url|label>, line breaks; every piece of
 * text through escapeMrkdwn, so nothing the text says becomes a mention or a control sequence.
 */
export function mrkdwnOfHtml(html: string): string {
  let out = '';
  // A link's label is gathered apart: it goes between | and > once the link closes.
  const links: { href: string; label: string }[] = [];
  const emit = (piece: string) => {
    const open = links.at(-1);
    if (open) open.label += piece;
    else out += piece;
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'strong' || name === 'b') emit('*');
        else if (name === 'em' || name === 'i') emit('_');
        else if (name === 'br') emit('\n');
        else if (name === 'a') links.push({ href: attributes.href ?? '', label: '' });
      },
      onclosetag(name) {
        if (name === 'strong' || name === 'b') emit('*');
        else if (name === 'em' || name === 'i') emit('_');
        else if (name === 'a') {
          const link = links.pop();
          if (!link) return;
          const safe = SAFE_SCHEMES.some((s) => link.href.toLowerCase().startsWith(`${s}:`));
          // Slack's link syntax has no escape for | or > in a URL (& is taken as written): such a link is its label alone.
          emit(safe && !/[|<>\s]/.test(link.href) ? `<${link.href}|${link.label}>` : link.label);
        }
      },
      ontext(text) {
        emit(escapeMrkdwn(text));
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

/** An owner's text for each destination, converted once. */
export type RenderedOwnerText = { html: string; text: string; mrkdwn: string };

export function renderOwnerText(text: string): RenderedOwnerText {
  const html = ownerTextHtml(text);
  return { html, text: plainOfHtml(html), mrkdwn: mrkdwnOfHtml(html) };
}

/**
 * A help-center article's Markdown body (block Markdown: paragraphs, headings, lists, quotes, code, images), parsed
 * once into sanitised HTML for the widget, the public pages and mails. Headings start at h2 (the page's title is
 * its h1); links open in a new tab; only http(s) and mailto links and https images are kept, so a `<script>` or a
 * `javascript:` link typed or imported never runs.
 */
const articleMarkdown = new MarkdownIt('commonmark', { html: true, breaks: false, linkify: true });
const ARTICLE_SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...ALLOWED_TAGS,
    'p',
    'h2',
    'h3',
    'h4',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'hr',
    'img',
    's',
    'del',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt'] },
  allowedSchemes: SAFE_SCHEMES,
  allowedSchemesByTag: { img: ['https'] },
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }),
    h1: 'h2',
    h5: 'h4',
    h6: 'h4',
  },
};

export function articleHtml(body: string): string {
  return sanitizeHtml(articleMarkdown.render(body.replace(/\r\n?/g, '\n')), ARTICLE_SANITIZE);
}

/** An article's body as plain words (for search, snippets, meta descriptions and Slack cards). */
export function articlePlain(body: string): string {
  return he
    .decode(
      sanitizeHtml(articleHtml(body).replace(/<\/(p|h[2-4]|li|blockquote|pre|tr)>|<br\s*\/?>/gi, '$&\n'), {
        allowedTags: [],
        allowedAttributes: {},
      }),
    )
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A link's words that are themselves a web address (https://…, http://…, www.…), as the address they name. */
function addressInWords(words: string): string | null {
  const text = words.trim();
  if (/\s/.test(text) || text === '') return null;
  const candidate = /^www\./i.test(text) ? `https://${text}` : text;
  if (!/^https?:\/\//i.test(candidate)) return null;
  try {
    return new URL(candidate).href;
  } catch {
    return null;
  }
}

/** The same address written two ways (a trailing slash, the scheme's case) counts as the same. */
const sameAddress = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

type MailLinkPiece = { href: string; inner: string; words: string };

/**
 * A stored message's HTML for a mail, and its plain-text part, read once. The HTML is sanitised again (see
 * sanitizeMessageHtml), and a link whose words are a web address leads to that address, never to another one
 * behind it. The plain text keeps every link's target: `our shop (https://shop.example/)`; a link whose words
 * are its address is written once.
 */
export function mailMessageParts(html: string): { html: string; text: string } {
  let out = '';
  let text = '';
  const links: MailLinkPiece[] = [];
  const emitHtml = (piece: string) => {
    const open = links.at(-1);
    if (open) open.inner += piece;
    else out += piece;
  };
  const emitText = (piece: string) => {
    const open = links.at(-1);
    if (open) open.words += piece;
    else text += piece;
  };
  const INLINE = new Set(['strong', 'b', 'em', 'i', 's', 'del', 'code']);
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (INLINE.has(name)) emitHtml(`<${name}>`);
        else if (name === 'br') {
          emitHtml('<br>');
          emitText('\n');
        } else if (name === 'a') links.push({ href: attributes.href ?? '', inner: '', words: '' });
      },
      onclosetag(name, implied) {
        if (INLINE.has(name) && !implied) emitHtml(`</${name}>`);
        else if (name === 'a') {
          const link = links.pop();
          if (!link) return;
          const named = addressInWords(link.words);
          const safe = SAFE_SCHEMES.some((s) => link.href.toLowerCase().startsWith(`${s}:`));
          const href = named ?? (safe ? link.href : '');
          emitHtml(href ? `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${link.inner}</a>` : link.inner);
          const target = href.replace(/^mailto:/i, '');
          emitText(!href || named || sameAddress(target, link.words.trim()) ? link.words : `${link.words} (${target})`);
        }
      },
      ontext(piece) {
        emitHtml(escapeHtml(piece));
        emitText(piece);
      },
    },
    { decodeEntities: true },
  );
  parser.write(sanitizeMessageHtml(html));
  parser.end();
  return { html: out, text };
}
