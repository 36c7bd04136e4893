/**
 * The shell's side of the reducer: each effect it answers (see reducer.ts Effect) carried out on the socket, the
 * chat screen, localStorage, the loader and the timers.
 */
import { type PanelContext, writeState } from '../lib/types';
import { chime } from './chime';
import type { Connection } from './connection';
import { h } from './dom';
import type { Action, Effect, PanelState } from './reducer';
import type { ChatScreen } from './screens/chat';
import { endedCard } from './screens/chatEnd';
import { emailCard } from './screens/info';
import { questionCard } from './screens/question';
import { screenshotCard } from './screens/screenshot';
import type { Language } from './text';

/** A rate-limited message is sent again after this long. */
const RESEND_MS = 4000;

export type EffectDeps = {
  ctx: PanelContext;
  lang: Language;
  chat: ChatScreen;
  conn: Connection;
  state(): PanelState;
  dispatch(action: Action): void;
  showBanner(text: string | undefined): void;
  /** Redraws the window's look. */
  look(): void;
  /** Redraws the look and the screen (`rebuild`: the screen anew even when it stays the same). */
  render(rebuild: boolean): void;
  upload(file: File, fields?: Record<string, string>): Promise<void>;
  /** A picture of the page, for an operator's screenshot request the visitor allowed. */
  capture(): Promise<Blob>;
};

/** Answers the function that carries out one effect. */
export function createEffects(deps: EffectDeps): (effect: Effect) => void {
  const { ctx, lang, chat, conn, dispatch } = deps;
  const t = lang.texts;
  let noAnswerTimer: ReturnType<typeof setTimeout> | undefined;

  const askEmail = (question: string, answered?: string): HTMLElement =>
    emailCard(ctx.settings(), t, question, (email) => dispatch({ a: 'email', email }), answered);

  return (effect) => {
    const settings = ctx.settings();
    switch (effect.k) {
      case 'save':
        writeState(ctx.widgetId, effect.patch);
        return;
      case 'send':
        if (!conn.send(effect.frame) && effect.hold) dispatch({ a: 'hold', frame: effect.frame });
        return;
      case 'connect':
        conn.start();
        return;
      case 'disconnect':
        conn.stop();
        return;
      case 'reconnect':
        conn.restart();
        return;
      case 'clearView':
        chat.clear(true);
        return;
      case 'message':
        chat.message(effect.message, effect.key, effect.fresh);
        if (effect.first) chat.autoResponse(effect.key, settings.autoResponseMessage || '');
        return;
      case 'pending':
        chat.pending(effect.clientId, effect.text, effect.autoAck ? settings.autoResponseMessage || '' : '');
        return;
      case 'confirm':
        chat.confirm(effect.clientId, effect.id, effect.key);
        if (effect.first) chat.autoResponse(effect.key, settings.autoResponseMessage || '');
        return;
      case 'fail':
        chat.fail(effect.clientId, effect.reason === 'Too long' ? t.tooLong : t.notSent);
        return;
      case 'edit':
        chat.edit(effect.id, effect.text, effect.html);
        return;
      case 'remove':
        chat.remove(effect.id);
        return;
      case 'typing':
        chat.showTyping(effect.on, effect.author);
        return;
      case 'ended':
        // Replayed after a reload too: the visitor sees the chat end as they left it, with its rating and transcript.
        if (settings.clearMessagesOnEnd) chat.clear(false);
        chat.place(
          endedCard(settings, t, deps.state().knownEmail, (frame) => dispatch({ a: 'queue', frame }), effect.rated),
          effect.key,
        );
        chat.scrollDown();
        return;
      case 'askEmail':
        chat.place(askEmail(t.askEmail, effect.email), effect.key);
        chat.scrollDown();
        return;
      case 'screenshot':
        chat.place(
          screenshotCard({
            settings,
            texts: t,
            take: deps.capture,
            send: (picture) => {
              const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
              const type = picture.type === 'image/jpeg' ? 'jpg' : 'png';
              void deps.upload(new File([picture], `screenshot-${stamp}.${type}`, { type: picture.type }), { screenshotFor: effect.id });
            },
            answer: (answer) => dispatch({ a: 'queue', frame: { t: 'screenshot', id: effect.id, answer } }),
            resized: () => chat.scrollDown(),
          }),
          effect.key,
        );
        chat.scrollDown();
        return;
      case 'question':
        chat.place(
          questionCard(effect.question, (nodeId) =>
            dispatch({ a: 'queue', frame: { t: 'answer', groupUid: effect.question.groupUid, nodeId } }),
          ),
          effect.key,
        );
        chat.scrollDown();
        return;
      case 'noAnswer':
        clearTimeout(noAnswerTimer);
        if (effect.arm && settings.noAnswerMessageOn !== false)
          noAnswerTimer = setTimeout(() => dispatch({ a: 'noAnswerDue' }), Math.max(1, settings.noAnswerMessageAfterSecs ?? 120) * 1000);
        return;
      case 'noAnswerNotice':
        chat.append(
          effect.withEmail
            ? h('li', { class: 'system' }, settings.noAnswerWithEmail || "Sorry for the wait! We'll reply by email as soon as we can.")
            : askEmail(
                settings.noAnswerWithoutEmail || "Sorry for the wait! Leave your email and we'll get back to you as soon as we can.",
              ),
        );
        return;
      case 'resendLater':
        setTimeout(() => dispatch({ a: 'retry', clientId: effect.clientId }), RESEND_MS);
        return;
      case 'emit':
        ctx.emit(effect.name, effect.detail);
        return;
      case 'chime':
        if ((!effect.ifPageHidden || document.hidden) && settings.playSound !== false) chime();
        return;
      case 'unread':
        ctx.setUnread(effect.count);
        return;
      case 'online':
        ctx.setOnline(effect.online);
        return;
      case 'warn':
        console.warn('[parley]', effect.message);
        return;
      case 'banner':
        deps.showBanner(effect.code === undefined ? undefined : lang.error(effect.code, effect.message));
        return;
      case 'config':
        Object.assign(ctx.config.settings, effect.config);
        return;
      case 'look':
        deps.look();
        return;
      case 'render':
        deps.render(effect.rebuild);
        return;
      default:
        return unknownEffect(effect);
    }
  };
}

/** Every effect is handled above; the `never` keeps it so when the reducer learns a new one. */
function unknownEffect(_effect: never): void {}
