/**
 * The help center in the panel: up to three articles suggested above the composer while the visitor writes their
 * first message (debounced searches in the widget's language, a list of buttons, the count said politely to screen
 * readers), articles opened inside the panel (screens/article.ts), and the automatic answer's card with "Did this
 * answer your question?". When the visitor pauses or sends, one search goes with `record=1`: the Answers report counts
 * those, not every keystroke. A widget without published articles answers [] and nothing shows.
 */
import type { ChatMessage, ClientFrame } from '../../../server/shared/widget-protocol';
import { clear, h } from './dom';
import { type ArticleData, articleView } from './screens/article';
import type { Language } from './text';

const DEBOUNCE_MS = 300;
const PAUSE_MS = 1500;
const SUGGESTED = 3;
/** Fewer characters than this search nothing (a word or two is needed to find anything). */
const MIN_CHARS = 4;

const DOC_ICON =
  '<svg viewBox="0 0 24 24" width="16" height="16"><path fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" d="M6 3h8l4 4v14H6zM14 3v4h4M9 12h6M9 16h6"/></svg>';

type Hit = { id: string; title: string; snippet: string };

export type AnswersDeps = {
  base: string;
  widgetId: string;
  /** The widget's language (its texts' locale), for the search and the article. */
  locale: string;
  lang: Language;
  /** Whether the visitor is writing their first message (no conversation, or none with a message of theirs yet). */
  suggesting(): boolean;
  /** Sends a frame now or at the next welcome (the visitor's "Did this answer" answer). */
  queue(frame: ClientFrame): void;
};

export type Answers = ReturnType<typeof createAnswers>;

/** Words of a snippet (HTML with <mark>): parsed, never inserted as markup. */
const wordsOf = (html: string): string => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';

export function createAnswers(deps: AnswersDeps) {
  const t = deps.lang.texts;
  const api = `${deps.base}/widget/api/${encodeURIComponent(deps.widgetId)}/articles`;
  const status = h('p', { class: 'sr', role: 'status', 'aria-live': 'polite' });
  const list = h('ul', { class: 'suggest', hidden: true });
  const el = h('div', { class: 'answers' }, status, list);
  let host: HTMLElement | undefined;
  let input: HTMLTextAreaElement | undefined;
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let pause: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  let recorded = '';
  /** The article the visitor opened from each automatic answer: their Yes is about that one. */
  const opened = new Map<string, string>();

  async function search(q: string, record: boolean): Promise<Hit[]> {
    const url = `${api}/search?q=${encodeURIComponent(q)}&lang=${encodeURIComponent(deps.locale)}${record ? '&record=1' : ''}`;
    try {
      const res = await fetch(url, { credentials: 'omit' });
      return res.ok ? (((await res.json()) as { articles?: Hit[] }).articles ?? []) : [];
    } catch {
      return [];
    }
  }

  function show(hits: Hit[]): void {
    const top = hits.slice(0, SUGGESTED);
    clear(
      list,
      ...top.map((hit) =>
        h(
          'li',
          {},
          h(
            'button',
            { type: 'button', class: 'hit', onclick: () => void open(hit.id) },
            h('b', {}, hit.title),
            h('span', {}, wordsOf(hit.snippet)),
          ),
        ),
      ),
    );
    list.hidden = top.length === 0;
    const said = top.length === 0 ? '' : top.length === 1 ? t.suggestionsOne : deps.lang.fill(t.suggestions, { count: String(top.length) });
    if (status.textContent !== said) status.textContent = said;
  }

  async function run(text: string, record: boolean): Promise<void> {
    const mine = ++asked;
    if (record) recorded = text;
    const hits = await search(text, record);
    if (mine === asked && deps.suggesting()) show(hits);
  }

  function stop(): void {
    clearTimeout(debounce);
    clearTimeout(pause);
    asked += 1;
  }

  /** Opens an article over the chat; Back and "Still need help?" close it and put the visitor back at their text. */
  async function open(id: string): Promise<void> {
    if (!host) return;
    let article: ArticleData | null = null;
    try {
      const res = await fetch(`${api}/${encodeURIComponent(id)}?lang=${encodeURIComponent(deps.locale)}`, { credentials: 'omit' });
      article = res.ok ? ((await res.json()) as ArticleData) : null;
    } catch {
      article = null;
    }
    host.querySelector('.article')?.remove();
    const view = articleView(t, article, () => {
      view.remove();
      input?.focus();
    });
    host.append(view);
    view.querySelector('button')?.focus();
  }

  function ask(m: ChatMessage): HTMLElement {
    const given = (helpful: boolean) => h('p', { class: 'given' }, helpful ? t.gladItHelped : t.personWillAnswer);
    if (m.helpful !== undefined) return given(m.helpful);
    const box = h('div', { class: 'ask' });
    const answer = (helpful: boolean) => () => {
      deps.queue({ t: 'helpful', id: m.id, helpful, ...(opened.has(m.id) ? { articleId: opened.get(m.id) } : {}) });
      clear(box, given(helpful));
    };
    box.append(
      h('p', {}, t.didThisAnswer),
      h(
        'div',
        { class: 'row' },
        h('button', { type: 'button', class: 'choice', onclick: answer(true) }, t.yes),
        h('button', { type: 'button', class: 'choice', onclick: answer(false) }, t.needPerson),
      ),
    );
    return box;
  }

  /** A message's articles as buttons: the title and a line of the article; each opens inside the panel. */
  const cardsOf = (m: ChatMessage): HTMLElement[] =>
    (m.articles ?? []).map((a) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'hit',
            onclick: () => {
              opened.set(m.id, a.id);
              void open(a.id);
            },
          },
          h('b', {}, a.title),
          a.snippet && h('span', {}, a.snippet),
        ),
      ),
    );

  return {
    el,

    /** Where articles open (the chat screen) and where the visitor goes back to. */
    attach(screen: HTMLElement, composerInput: HTMLTextAreaElement): void {
      host = screen;
      input = composerInput;
    },

    /** The composer's text changed. */
    typed(text: string): void {
      stop();
      const q = text.trim();
      if (!deps.suggesting() || q.length < MIN_CHARS) return show([]);
      debounce = setTimeout(() => void run(q, false), DEBOUNCE_MS);
      pause = setTimeout(() => {
        if (q !== recorded) void run(q, true);
      }, PAUSE_MS);
    },

    /** The visitor sends `text`: the suggestions go, and the question is counted once if the pause did not count it. */
    sent(text: string): void {
      stop();
      const q = text.trim();
      if (deps.suggesting() && q.length >= MIN_CHARS && q !== recorded) {
        recorded = q;
        void search(q, true);
      }
      show([]);
    },

    /** The articles a message carries, as cards that open inside the panel (an operator may send one from Slack). */
    articles(m: ChatMessage): HTMLElement {
      return h('div', { class: 'bubble' }, h('ul', { class: 'suggest' }, ...cardsOf(m)));
    },

    /** An automatic answer: marked as such, its articles (opened inside the panel), and "Did this answer your question?". */
    card(m: ChatMessage): HTMLElement {
      const cards = cardsOf(m);
      // Parley's own mark, never an operator's picture: a page.
      const mark = h('span', { class: 'avatar bot', 'aria-hidden': 'true' });
      mark.innerHTML = DOC_ICON;
      return h(
        'li',
        { class: 'msg operator auto' },
        mark,
        h(
          'div',
          { class: 'col' },
          h('span', { class: 'author' }, t.automaticAnswer),
          h('div', { class: 'bubble' }, h('p', {}, t.autoAnswerIntro), h('ul', { class: 'suggest' }, ...cards), ask(m)),
          h('span', { class: 'meta' }, deps.lang.timeOf(m.at)),
        ),
      );
    },
  };
}
