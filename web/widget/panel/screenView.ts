/**
 * Which screen the panel's body shows (the reducer's screenFor: chat, offline form, consent, details), drawn again
 * only when it changes, and where focus goes when the panel opens.
 */
import type { PanelContext } from '../lib/types';
import { clear, h } from './dom';
import { type Action, type PanelState, type Screen, screenFor } from './reducer';
import type { ChatScreen } from './screens/chat';
import { consentForm, detailsForm } from './screens/info';
import { offlineForm } from './screens/offline';
import type { Language } from './text';
import { pageInfo } from './visitorPage';

export type ScreenViewDeps = {
  ctx: PanelContext;
  lang: Language;
  body: HTMLElement;
  chat: ChatScreen;
  /** Why a mail's link opened a new chat, if it did. */
  notice: string | undefined;
  state(): PanelState;
  dispatch(action: Action): void;
  /** Applies the window's look (it may change with every state). */
  look(): void;
};

export function createScreenView(deps: ScreenViewDeps) {
  const { ctx, lang, body, chat, notice, state, dispatch } = deps;
  const t = lang.texts;
  const s = () => ctx.settings();
  let screen: Screen | undefined;

  /** Draws the look, and the screen when it changed (or always with `rebuild`: settings or identity changed). */
  function render(rebuild = false): void {
    if (rebuild) screen = undefined;
    deps.look();
    const next = screenFor(state(), s(), ctx.identity());
    if (next === screen) return;
    screen = next;
    clear(body, screenEl(next));
    // Why a mail's link opened a new chat: in the chat's log, and above a form that comes first (pre-chat, offline).
    if (notice && next !== 'chat') body.prepend(h('p', { class: 'system', role: 'status', style: 'margin:12px auto 0' }, notice));
    if (state().expanded) focusFirst();
  }

  function screenEl(next: Screen): HTMLElement {
    switch (next) {
      case 'chat':
        return chat.el;
      case 'offline':
        return offlineForm({
          settings: s(),
          texts: t,
          error: (code, message) => lang.error(code, message),
          identity: ctx.identity(),
          post: (message) =>
            fetch(`${ctx.base}/widget/api/${encodeURIComponent(ctx.widgetId)}/offline`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ ...message, page: pageInfo(true), visitorToken: state().stored.token }),
              credentials: 'omit',
            }),
          sent: (email) => ctx.emit('offlineMessageSent', { email }),
        });
      case 'consent':
        return consentForm(s(), () => dispatch({ a: 'accept' }));
      case 'info':
        return detailsForm(s(), t, ctx.identity(), (details) => dispatch({ a: 'details', ...details }));
    }
  }

  function focusFirst(): void {
    const target = screen === 'chat' ? chat.input : body.querySelector<HTMLElement>('input, textarea, button');
    target?.focus({ preventScroll: true });
  }

  return { render, focusFirst };
}
