/** Message text for the visitor: plain text with links, or the server's formatted HTML rebuilt from an allow-list. */
import type { WidgetErrorCode } from '../../../server/shared/widget-constants';
import { h } from './dom';

const ALLOWED = new Set(['A', 'B', 'STRONG', 'I', 'EM', 'CODE', 'PRE', 'BR', 'P', 'UL', 'OL', 'LI', 'BLOCKQUOTE', 'S', 'DEL']);
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
export function safeHtml(html: string): DocumentFragment {
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

/** What the visitor reads for each error code of the protocol (the type makes this list complete). */
export const ERROR_TEXT: Record<WidgetErrorCode, string> = {
  bad_frame: 'Something went wrong sending that. Please try again.',
  too_large: 'That message is too long to send. Please shorten it.',
  rate_limited: 'You are sending messages very fast. Your message will go out in a moment.',
  try_again: 'We could not save your message just now. It will be sent again in a moment.',
  unknown_widget: 'This chat is not available any more.',
  widget_offline: 'We are offline right now. Leave us a message instead.',
  not_allowed_here: 'Chat is not available on this page.',
  too_many_conversations: 'All our team members are busy right now. Please try again in a few minutes.',
  info_required: 'Please tell us your name and e-mail first.',
  privacy_not_accepted: 'Please accept the privacy notice to start chatting.',
  conversation_ended: 'This chat has ended. Send a new message to start another one.',
  uploads_disabled: 'File uploads are not available in this chat.',
  // Never shown: the site's mistake, reported in the browser's console (the visitor chats on as a guest).
  identity_unverified: 'You are chatting as a guest.',
};

export const errorText = (code: string, fallback?: string): string =>
  (ERROR_TEXT as Record<string, string>)[code] ?? fallback ?? 'Something went wrong. Please try again.';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function timeOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
}
