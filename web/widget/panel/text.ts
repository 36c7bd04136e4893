/** Message text for the visitor: plain text with links, or the server's formatted HTML rebuilt from an allow-list. */
import { fill, type UiTexts } from '../../../server/shared/widget-texts';
import { h } from './dom';

const ALLOWED = new Set(['A', 'B', 'STRONG', 'I', 'EM', 'CODE', 'PRE', 'BR', 'P', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'S', 'DEL']);
/** An article's body also has headings and pictures (server/ownerText.ts articleHtml); headings drop a level in the panel. */
const ARTICLE = new Set(['H2', 'H3', 'H4']);
const SAFE_HREF = /^(https?:|mailto:)/i;

function link(href: string, text: string): HTMLAnchorElement {
  return h('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow' }, text);
}

/** Plain text with http(s) URLs turned into links; line breaks kept by CSS (white-space: pre-wrap). */
export function linkify(text: string): DocumentFragment {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g)) {
    out.append(text.slice(last, match.index), link(match[0], match[0]));
    last = (match.index ?? 0) + match[0].length;
  }
  out.append(text.slice(last));
  return out;
}

/**
 * The server already sanitises operator HTML; the widget runs inside someone else's page, so it rebuilds the
 * markup from an allow-list once more rather than trusting innerHTML.
 */
export function safeHtml(html: string, article = false): DocumentFragment {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const out = document.createDocumentFragment();
  const copy = (from: Node, to: Node): void => {
    for (const node of Array.from(from.childNodes)) {
      if (node.nodeType === Node.TEXT_NODE) to.appendChild(document.createTextNode(node.textContent ?? ''));
      else if (node instanceof Element) {
        if (node.tagName === 'A') {
          const href = node.getAttribute('href') ?? '';
          if (SAFE_HREF.test(href)) {
            const a = link(href, '');
            copy(node, a);
            to.appendChild(a);
          } else copy(node, to);
        } else if (article && ARTICLE.has(node.tagName)) {
          const el = document.createElement(`h${Number(node.tagName[1]) + 1}`);
          copy(node, el);
          to.appendChild(el);
        } else if (article && node.tagName === 'IMG' && /^https:/i.test(node.getAttribute('src') ?? '')) {
          to.appendChild(h('img', { src: node.getAttribute('src') ?? '', alt: node.getAttribute('alt') ?? '' }));
        } else if (ALLOWED.has(node.tagName)) {
          const el = document.createElement(node.tagName.toLowerCase());
          copy(node, el);
          to.appendChild(el);
        } else if (node.tagName !== 'SCRIPT' && node.tagName !== 'STYLE') copy(node, to);
      }
    }
  };
  copy(doc.body, out);
  return out;
}

/**
 * The panel's language: the widget's own texts the server picked for the visitor's browser languages (only that
 * language is loaded), and dates, times and sizes through Intl in the visitor's own variant of it (en-GB's
 * 24-hour clock, not en-US's, when the texts are English).
 */
export class Language {
  readonly time: Intl.DateTimeFormat;
  private readonly locales: string[];

  constructor(
    readonly texts: UiTexts,
    readonly locale: string,
    browser: readonly string[],
  ) {
    const base = locale.split('-')[0];
    this.locales = [...browser.filter((tag) => tag.split('-')[0]?.toLowerCase() === base), locale];
    this.time = safeFormat(() => new Intl.DateTimeFormat(this.locales, { hour: 'numeric', minute: '2-digit' }));
  }

  /** The visitor's text for an error code of the protocol (the server's English message for a code it does not know). */
  error(code: string, fallback?: string): string {
    return (this.texts.errors as Record<string, string>)[code] ?? fallback ?? this.texts.genericError;
  }

  fill(text: string, values: Record<string, string>): string {
    return fill(text, values);
  }

  size(bytes: number): string {
    const [value, unit] =
      bytes < 1024 ? [bytes, 'byte'] : bytes < 1024 * 1024 ? [Math.round(bytes / 1024), 'kilobyte'] : [bytes / 1024 / 1024, 'megabyte'];
    try {
      return new Intl.NumberFormat(this.locales, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
    } catch {
      return `${value} ${unit === 'byte' ? 'B' : unit === 'kilobyte' ? 'KB' : 'MB'}`;
    }
  }

  timeOf(iso: string): string {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? '' : this.time.format(date);
  }
}

function safeFormat(make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  try {
    return make();
  } catch {
    return new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
  }
}
