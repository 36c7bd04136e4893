/**
 * The chat panel, loaded by the loader on demand (≤ 30 KB gzipped; vanilla DOM, no framework). This is its
 * shell: it wires the parts that own the socket (connection.ts), the window (frame.ts, look.ts), the screens
 * (screenView.ts; screens/: chat, offline form, info prompts, chat end, question group), localStorage and the
 * timers (effects.ts), feeding every server frame and visitor action to the pure reducer (reducer.ts) and handing
 * the effects it answers to effects.ts.
 */
import type { ServerFrame } from '../../../server/shared/widget-protocol';
import { PANEL_CALLBACK, type PanelContext, type PanelFactory, type PanelHandle, readState, storageKey } from '../lib/types';
import { createAnswers } from './answers';
import { createCapture } from './capture';
import { Connection } from './connection';
import { h } from './dom';
import { createEffects } from './effects';
import { createFrame } from './frame';
import { createLook } from './look';
import {
  type Action,
  type Effect,
  initialState,
  needsSocket,
  type PanelState,
  reduceAction,
  reduceFrame,
  wantsSuggestions,
} from './reducer';
import { chatScreen } from './screens/chat';
import { createScreenView } from './screenView';
import { createSeenReport } from './seen';
import { Language } from './text';
import { createUpload } from './upload';
import { helloFrame, newClientId, resumeNotice } from './visitorPage';

function createPanel(ctx: PanelContext): PanelHandle {
  const { widgetId, base } = ctx;
  const lang = new Language(ctx.config.texts, ctx.config.locale, navigator.languages ?? []);
  const notice = resumeNotice(ctx, lang.texts);
  let state: PanelState = initialState(readState(widgetId), ctx.config.online, ctx.style === 'inline', ctx.identity()?.email);
  const current = () => state;

  const dispatch = (action: Action): void => apply(reduceAction(state, action));
  const onFrame = (frame: ServerFrame): void => apply(reduceFrame(state, frame));

  const frame = createFrame(ctx, lang.texts);
  const chat = chatScreen({
    settings: () => ctx.settings(),
    lang,
    base,
    token: () => state.stored.token,
    send: (text) => dispatch({ a: 'send', text, clientId: newClientId() }),
    retry: (clientId) => dispatch({ a: 'retry', clientId }),
    typing: (on) => conn.send({ t: 'typing', on }),
    upload: (file) => void upload(file),
    answers: createAnswers({
      base,
      widgetId,
      lang,
      locale: ctx.config.locale,
      suggesting: () => wantsSuggestions(state),
      queue: (frame) => dispatch({ a: 'queue', frame }),
    }),
  });
  const conn = new Connection(ctx.config.wsUrl, {
    hello: () => helloFrame(ctx, state),
    status: (connected) => look.connection(connected),
    frame: onFrame,
  });
  const look = createLook({ ctx, lang, frame, chat, state: current, connected: () => conn.connected, dispatch });
  const view = createScreenView({ ctx, lang, body: frame.body, chat, notice, state: current, dispatch, look: look.apply });
  const upload = createUpload({
    base,
    widgetId,
    lang,
    token: () => state.stored.token,
    append: (line) => chat.append(line),
    showBanner: frame.showBanner,
  });
  const run = createEffects({
    ctx,
    lang,
    chat,
    conn,
    state: current,
    dispatch,
    showBanner: frame.showBanner,
    look: look.apply,
    render: view.render,
    upload,
    capture: createCapture(base),
  });
  const reportSeen = createSeenReport(current, (frame) => conn.send(frame));

  function apply(step: { state: PanelState; effects: Effect[] }): void {
    state = step.state;
    for (const effect of step.effects) run(effect);
    reportSeen();
  }

  // Another tab of the same visitor changed the stored state: a reset there means a reset here.
  addEventListener('storage', (event) => {
    if (event.key === storageKey(widgetId)) dispatch({ a: 'storage', stored: readState(widgetId) });
  });
  addEventListener('online', () => {
    if (needsSocket(state)) conn.restart();
  });
  addEventListener('offline', () => conn.interrupt());
  document.addEventListener('visibilitychange', reportSeen);

  view.render();
  if (notice) chat.append(h('li', { class: 'system' }, notice));
  if (needsSocket(state)) conn.start();
  for (const item of state.stored.pending ?? []) chat.pending(item.clientId, item.text, '');

  return {
    expand() {
      chat.greet(ctx.trigger());
      dispatch({ a: 'expand' });
      view.focusFirst();
      chat.scrollDown();
    },
    collapse() {
      dispatch({ a: 'collapse' });
      frame.toggleMenu(false);
      chat.stopTyping();
    },
    send(text) {
      chat.stopTyping();
      dispatch({ a: 'send', text, clientId: newClientId() });
    },
    refresh(identityChanged) {
      dispatch({ a: 'identity', email: ctx.identity()?.email });
      view.render(true);
      // The identity travels in hello: a running socket says hello again (lastSeq kept, so nothing is replayed twice).
      if (identityChanged && conn.connected) conn.restart();
    },
    reset() {
      dispatch({ a: 'reset' });
    },
    isOnline: () => state.online,
  };
}

(window as unknown as Record<string, ((factory: PanelFactory) => void) | undefined>)[PANEL_CALLBACK]?.(createPanel);
