/**
 * The chat screen: the message log (kept in order by the reducer's keys), the visitor's pending bubbles, the
 * operator's typing line and the composer. It draws what the shell tells it and reports what the visitor does.
 */
import { MESSAGE_CHARS } from '../../../../server/shared/widget-constants';
import type { ChatMessage } from '../../../../server/shared/widget-protocol';
import type { Trigger, VisitorSettings } from '../../lib/types';
import type { Answers } from '../answers';
import { CLIP_ICON, clear, EMPTY_ICON, h, iconButton, SEND_ICON } from '../dom';
import { type Language, linkify, safeHtml } from '../text';

const TYPING_IDLE_MS = 3000;
const OPERATOR_TYPING_MS = 8000;

export type ChatDeps = {
  settings(): VisitorSettings;
  /** The visitor's language: the widget's own texts, times and sizes. */
  lang: Language;
  /** Parley's origin, for file links. */
  base: string;
  /** The visitor token, added to file links so they open without a session. */
  token(): string | undefined;
  send(text: string): void;
  retry(clientId: string): void;
  /** The visitor started or stopped typing. */
  typing(on: boolean): void;
  upload(file: File): void;
  /** The help center: suggestions above the composer, articles inside the panel, automatic answers' cards. */
  answers: Answers;
};

export type ChatScreen = ReturnType<typeof chatScreen>;

export function chatScreen(deps: ChatDeps) {
  const { settings: s, lang } = deps;
  const t = lang.texts;
  const log = h('ol', { class: 'log' });
  // The live region wraps the list (a role on the <ol> would take its list semantics away).
  const feed = h('div', { role: 'log', 'aria-live': 'polite', 'aria-label': t.messages }, log);
  const empty = h('div', { class: 'empty' });
  empty.innerHTML = EMPTY_ICON;
  empty.append(h('p', {}, t.emptyChat));
  const greeting = h('div', { class: 'log' }, empty);
  const scroller = h('div', { class: 'scroll' }, greeting, feed);
  const typing = h('div', { class: 'typing', hidden: true, 'aria-live': 'polite' });
  const input = h('textarea', { rows: 1, 'aria-label': t.message, maxlength: MESSAGE_CHARS });
  const fileInput = h('input', { type: 'file', class: 'sr', tabindex: -1, 'aria-hidden': 'true' });
  const attach = iconButton(CLIP_ICON, t.attach, () => fileInput.click());
  const sendButton = iconButton(SEND_ICON, t.send, () => submit(), 'icon send');
  const composer = h('form', { class: 'composer' }, attach, fileInput, input, sendButton);
  const el = h('div', { class: 'body' }, scroller, typing, deps.answers.el, composer);
  deps.answers.attach(el, input);
  el.style.background = 'transparent';

  const byId = new Map<string, HTMLElement>();
  const pendingEls = new Map<string, HTMLElement>();
  /** Auto-response lines waiting for their first message's key, by client id. */
  const acks = new Map<string, HTMLElement>();
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  let typingOn = false;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  let operatorTypingTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * The log is a polite live region: what is added to it is read out. Replayed history must not be, so the region
   * is off while it is placed and polite again once the browser has taken the additions in.
   */
  function quietly(): void {
    feed.setAttribute('aria-live', 'off');
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => feed.setAttribute('aria-live', 'polite'), 300);
  }

  /** News that comes while history is still being taken in is read out all the same: the region is polite again at once. */
  function loud(): void {
    clearTimeout(quietTimer);
    if (feed.getAttribute('aria-live') !== 'polite') feed.setAttribute('aria-live', 'polite');
  }

  function stopTyping(): void {
    clearTimeout(typingTimer);
    if (typingOn) deps.typing(false);
    typingOn = false;
  }

  function submit(): void {
    const text = input.value;
    if (!text.trim()) return;
    input.value = '';
    input.style.height = 'auto';
    stopTyping();
    deps.answers.sent(text);
    deps.send(text);
    input.focus();
  }

  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  input.addEventListener('input', () => {
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, 120)}px`;
    if (!typingOn && input.value.trim()) {
      typingOn = true;
      deps.typing(true);
    }
    clearTimeout(typingTimer);
    typingTimer = setTimeout(stopTyping, TYPING_IDLE_MS);
    deps.answers.typed(input.value);
  });
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    fileInput.value = '';
    if (file) deps.upload(file);
  });

  function scrollDown(): void {
    scroller.scrollTop = scroller.scrollHeight;
  }

  /** Keeps the list in key order; items still sending (no key) stay last. */
  function place(item: HTMLElement, key: number | undefined): void {
    empty.hidden = true;
    if (key !== undefined) {
      item.dataset.key = String(key);
      for (const other of Array.from(log.children) as HTMLElement[]) {
        if (other !== item && (other.dataset.key === undefined || Number(other.dataset.key) > key)) {
          log.insertBefore(item, other);
          return;
        }
      }
    }
    log.appendChild(item);
  }

  function bubbleOf(m: Pick<ChatMessage, 'text' | 'html'>): HTMLElement {
    const bubble = h('div', { class: 'bubble' });
    bubble.append(m.html ? safeHtml(m.html) : linkify(m.text));
    if (!m.text && !m.html) bubble.hidden = true;
    return bubble;
  }

  function filesOf(m: ChatMessage): HTMLElement | undefined {
    if (!m.files?.length) return undefined;
    const token = deps.token();
    const param = token ? `v=${encodeURIComponent(token)}` : '';
    return h(
      'div',
      { class: 'files' },
      ...m.files.map((f) => {
        const url = new URL(f.url, deps.base);
        if (param && !url.searchParams.has('v')) url.search += (url.search ? '&' : '') + param;
        const a = h('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer', download: f.name });
        if (f.mimetype.startsWith('image/')) a.append(h('img', { src: url.href, alt: f.name }));
        else a.textContent = `📎 ${f.name} (${lang.size(f.size)})`;
        return a;
      }),
    );
  }

  function avatar(url: string | undefined): HTMLElement {
    return url ? h('img', { class: 'avatar', src: url, alt: '' }) : h('span', { class: 'avatar none' });
  }

  function messageEl(m: ChatMessage): HTMLElement {
    const settings = s();
    if (m.automatic) return deps.answers.card(m);
    if (m.from === 'system') return h('li', { class: 'system' }, m.text);
    if (m.from === 'visitor') {
      return h(
        'li',
        { class: 'msg visitor' },
        h(
          'div',
          { class: 'col' },
          h('span', { class: 'sr' }, `${settings.browserSideAuthorLabel || 'You'}: `),
          bubbleOf(m),
          filesOf(m),
          h('span', { class: 'meta' }, lang.timeOf(m.at)),
        ),
      );
    }
    // The avatar settings (spec section 4): a team avatar, the operator's Slack picture, or none.
    const forward = settings.forwardSlackUserName !== false;
    const name = forward && m.author?.name ? m.author.name : settings.agentLabel || 'Support';
    const team = settings.teamAvatarOn && settings.teamAvatarUrl;
    return h(
      'li',
      { class: 'msg operator' },
      avatar(team || (forward ? m.author?.avatarUrl : undefined)),
      h(
        'div',
        { class: 'col' },
        h('span', { class: 'author' }, name),
        m.articles?.length ? deps.answers.articles(m) : bubbleOf(m),
        filesOf(m),
        h('span', { class: 'meta' }, lang.timeOf(m.at), m.edited && `· ${t.edited}`),
      ),
    );
  }

  function showTyping(on: boolean, author: string | undefined): void {
    clearTimeout(operatorTypingTimer);
    typing.hidden = !on;
    if (!on) return;
    const settings = s();
    const who = author && settings.forwardSlackUserName !== false ? author : settings.agentLabel || 'Support';
    clear(typing, h('span', {}, h('i'), h('i'), h('i')), lang.fill(t.typing, { name: who }));
    operatorTypingTimer = setTimeout(() => (typing.hidden = true), OPERATOR_TYPING_MS);
  }

  return {
    el,
    input,
    attach,
    sendButton,
    scrollDown,
    place,
    stopTyping,
    showTyping,

    /** `fresh`: new since the panel loaded, announced by screen readers; history (replayed) is placed quietly. */
    message(m: ChatMessage, key: number, fresh = true): void {
      if (!fresh) quietly();
      else loud();
      const item = messageEl(m);
      byId.set(m.id, item);
      place(item, key);
      scrollDown();
    },

    /** A "Sending…" bubble (once per client id), and the auto response below a first message. */
    pending(clientId: string, text: string, autoAck: string): void {
      if (pendingEls.has(clientId)) return;
      const meta = h('span', { class: 'meta' }, t.sending);
      const item = h('li', { class: 'msg visitor sending' }, h('div', { class: 'col' }, bubbleOf({ text }), meta));
      pendingEls.set(clientId, item);
      empty.hidden = true;
      log.appendChild(item);
      if (autoAck) {
        const line = h('li', { class: 'system' }, autoAck);
        acks.set(clientId, line);
        log.appendChild(line);
      }
      scrollDown();
    },

    confirm(clientId: string, id: string, key: number): void {
      const item = pendingEls.get(clientId);
      if (!item) return;
      pendingEls.delete(clientId);
      item.classList.remove('sending', 'failed');
      const meta = item.querySelector('.meta');
      if (meta) meta.textContent = lang.timeOf(new Date().toISOString());
      byId.set(id, item);
      place(item, key);
      // The acknowledgement of a first message stays right below it, wherever later messages land.
      const ack = acks.get(clientId);
      if (ack) {
        acks.delete(clientId);
        place(ack, key + 0.5);
      }
    },

    /** The automatic response below the first message at `key` (after a reload, or seen from another tab), once. */
    autoResponse(key: number, text: string): void {
      if (!text || log.querySelector(`[data-key="${key + 0.5}"]`)) return;
      place(h('li', { class: 'system' }, text), key + 0.5);
    },

    fail(clientId: string, reason: string): void {
      const item = pendingEls.get(clientId);
      const meta = item?.querySelector('.meta');
      if (!item || !meta) return;
      item.classList.replace('sending', 'failed');
      clear(
        meta,
        reason,
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              item.classList.replace('failed', 'sending');
              clear(meta, t.sending);
              deps.retry(clientId);
            },
          },
          t.retry,
        ),
      );
    },

    edit(id: string, text: string, html: string | undefined): void {
      const item = byId.get(id);
      const bubble = item?.querySelector('.bubble');
      if (!bubble) return;
      clear(bubble, html ? safeHtml(html) : linkify(text));
      const meta = item?.querySelector('.meta');
      if (meta && !meta.textContent?.includes(t.edited)) meta.append(` · ${t.edited}`);
    },

    remove(id: string): void {
      byId.get(id)?.remove();
      byId.delete(id);
    },

    /** Appends a line or card at the end of the log (not part of the history: no key). */
    append(item: HTMLElement): void {
      empty.hidden = true;
      log.appendChild(item);
      scrollDown();
    },

    /** Empties the log; `all`: also forgets the visitor's pending bubbles (another visitor, a reset). */
    clear(all: boolean): void {
      log.textContent = '';
      byId.clear();
      if (!all) return;
      empty.hidden = false;
      pendingEls.clear();
      acks.clear();
    },

    /** The trigger's message the visitor clicked stays on top of the chat, so their answer has its question. */
    greet(opener: Trigger | undefined): void {
      if (!opener || greeting.querySelector('.msg') || log.childElementCount) return;
      empty.hidden = true;
      const settings = s();
      greeting.append(
        h(
          'div',
          { class: 'msg operator' },
          avatar(settings.teamAvatarOn ? settings.teamAvatarUrl : undefined),
          h('div', { class: 'col' }, h('span', { class: 'author' }, settings.agentLabel || 'Support'), bubbleOf({ text: opener.message })),
        ),
      );
      greeting.style.marginBottom = '10px';
    },
  };
}
