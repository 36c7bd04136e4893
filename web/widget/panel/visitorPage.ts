/**
 * What the panel tells the server about the visitor's page and browser: the hello frame of each (re)connect, the
 * page of an offline message, and why a mail's link did not open its conversation here.
 */
import { TITLE_CHARS, URL_CHARS } from '../../../server/shared/widget-constants';
import type { ClientFrame } from '../../../server/shared/widget-protocol';
import type { UiTexts } from '../../../server/shared/widget-texts';
import type { PanelContext } from '../lib/types';
import { contiguousSeq, type PanelState } from './reducer';

export const newClientId = (): string =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;

/** What the page tells about itself in hello and offline messages (only its address without metadata consent). */
export function pageInfo(withMeta: boolean) {
  return withMeta
    ? {
        url: location.href.slice(0, URL_CHARS),
        title: document.title.slice(0, TITLE_CHARS),
        referrer: document.referrer.slice(0, URL_CHARS),
      }
    : { url: (location.origin + location.pathname).slice(0, URL_CHARS), title: '', referrer: '' };
}

/** The browser's IANA time zone, for the times in the visitor's mails ('' when it cannot tell). */
function browserTimeZone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && zone.length <= 64 ? zone : undefined;
  } catch {
    return undefined;
  }
}

/** The hello frame of a (re)connect: the last contiguous seq shown, the page, the languages and the identity. */
export function helloFrame(ctx: PanelContext, state: PanelState): ClientFrame {
  const identity = ctx.identity();
  return {
    t: 'hello',
    widgetId: ctx.widgetId,
    visitorToken: state.stored.token,
    lastSeq: contiguousSeq(state.seen),
    conversationId: state.conversation?.id || undefined,
    page: pageInfo(ctx.settings().collectVisitorMetaData !== false),
    languages: (navigator.languages ?? []).filter((tag) => tag.length <= 35).slice(0, 10),
    timeZone: browserTimeZone(),
    identity: identity && (identity.userId || identity.name || identity.email || identity.traits) ? identity : undefined,
    triggerUid: ctx.trigger()?.uid || undefined,
  };
}

/**
 * Why a mail's link did not open its conversation here ('' or undefined when it did). A verified visitor's chat is
 * opened by the site's own signed identify; without one, they are told to sign in. The link's resume token,
 * exchanged by the loader, leaves the address bar (and the page's history entry).
 */
export function resumeNotice(ctx: PanelContext, t: UiTexts): string | undefined {
  const notice =
    ctx.notice === 'resume_verified'
      ? ctx.identity()?.userHash
        ? ''
        : t.resumeSignIn
      : ctx.notice && (ctx.notice === 'resume_expired' ? t.resumeExpired : t.resumeInvalid);
  if (/^#parley-open=.*\./.test(location.hash)) history.replaceState(history.state, '', location.href.split('#')[0]);
  return notice;
}
