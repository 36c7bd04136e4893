/**
 * /widget.js: the loader the embed snippet puts on a site. Framework-free and small (≤ 5 KB gzipped): it
 * reads its <script> tag, fetches the widget's public configuration, draws the launcher inside a shadow root,
 * serves `window.parley` (replaying calls queued by the snippet's stub) and loads the chat panel only when it is
 * needed: hover, click, open(), send(), or an ongoing conversation remembered in localStorage.
 * Nothing here may break the host page: every entry point catches its errors.
 */

import { blacklisted, cleanIdentity, type LauncherState, launcherView, onPage } from './lib/launcher';
import { launcherCss } from './lib/launcherCss';
import {
  type EventName,
  type Identity,
  MOBILE_QUERY,
  PANEL_CALLBACK,
  type PanelFactory,
  type PanelHandle,
  type PublicConfig,
  readState,
  type Trigger,
  type VisitorSettings,
  type WidgetStyleName,
  writeState,
} from './lib/types';

/** File name of the content-hashed panel bundle, set by scripts/build.ts. */
declare const __PARLEY_PANEL__: string;

type Listener = (detail?: unknown) => void;
type Stub = { _q?: [string, unknown[]][] };
type ParleyWindow = Window & { parley?: unknown } & Record<string, unknown>;

const w = window as unknown as ParleyWindow;

const guard =
  <A extends unknown[], R>(fn: (...args: A) => R, fallback: R) =>
  (...args: A): R => {
    try {
      return fn(...args);
    } catch (error) {
      console.error('[parley]', error);
      return fallback;
    }
  };

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true"><path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-4.5 3.6A.5.5 0 0 1 4 21.2V18a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm3 6.5a1.5 1.5 0 1 0 0 .01Zm5 0a1.5 1.5 0 1 0 0 .01Zm5 0a1.5 1.5 0 1 0 0 .01Z"/></svg>';
const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" d="M6 6l12 12M18 6 6 18"/></svg>';

function start(): void {
  const script =
    (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[data-widget-id]');
  const widgetId = script?.getAttribute('data-widget-id');
  if (!script || !widgetId) return;
  const base = new URL(script.src, location.href).origin;
  const styleAttr = script.getAttribute('data-style');
  const style: WidgetStyleName = styleAttr === 'sidebar' || styleAttr === 'inline' ? styleAttr : 'standard';

  const stub = w.parley as (Stub & { _loaded?: boolean }) | undefined;
  // The snippet pasted twice (or a theme and a plugin both adding it): one widget is enough.
  if (stub?._loaded) return;
  const queued = stub && Array.isArray(stub._q) ? stub._q : [];

  const listeners: Record<string, Listener[]> = {};
  let config: PublicConfig | undefined;
  let overrides: VisitorSettings = {};
  let identity: Identity | undefined;
  let notice: string | undefined;
  /** What the launcher shows is drawn from this (lib/launcher.ts); the site's show()/hide() set `wanted`. */
  const ls: LauncherState = {
    style,
    usable: false,
    wanted: true,
    online: false,
    hideWhenOffline: false,
    ongoing: false,
    expanded: false,
    unread: 0,
    phone: false,
  };
  let panel: PanelHandle | undefined;
  let trigger: Trigger | undefined;
  let peek: HTMLElement | undefined;
  let panelLoading: Promise<PanelHandle | undefined> | undefined;
  const waiting: (() => void)[] = [];

  const emit = (name: EventName, detail?: unknown): void => {
    for (const fn of listeners[name] ?? []) guard(fn, undefined)(detail);
    guard(() => document.dispatchEvent(new CustomEvent(`parley.${name}`, { detail })), undefined)();
  };
  const settings = (): VisitorSettings => ({ ...config?.settings, ...overrides });
  const whenConfigured = (fn: () => void): void => {
    if (config) fn();
    else waiting.push(fn);
  };

  const host = document.createElement('parley-widget');
  host.setAttribute('style', 'all:initial');
  const root = host.attachShadow({ mode: 'open' });
  const css = document.createElement('style');
  root.appendChild(css);
  const launcher = document.createElement('button');
  launcher.type = 'button';
  launcher.className = 'launcher';
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.setAttribute('aria-hidden', 'true');
  const unreadStatus = document.createElement('span');
  unreadStatus.className = 'sr';
  unreadStatus.setAttribute('role', 'status');
  const frame = document.createElement('div');
  frame.className = 'frame';
  frame.hidden = true;
  root.append(launcher, frame, unreadStatus);

  const view = () => {
    ls.phone = matchMedia(MOBILE_QUERY).matches;
    ls.ongoing = !!readState(widgetId).ongoing;
    return launcherView(ls, settings(), config?.texts);
  };

  const draw = (): void => {
    const s = settings();
    const v = view();
    host.style.display = v.visible ? (style === 'inline' ? 'block' : '') : 'none';
    css.textContent = launcherCss(s.titleColor || '#2f6fed', s.titleFontColor || '#fff');
    host.setAttribute('data-mode', v.mode);
    frame.className = `frame ${style}${v.left ? ' left' : ''}${v.mobile ? ' mobile' : ''}`;
    launcher.className = `launcher ${v.mode}${v.left ? ' left' : ''}`;
    launcher.hidden = v.launcherHidden;
    launcher.setAttribute('aria-expanded', String(ls.expanded));
    launcher.setAttribute(
      'aria-label',
      ls.expanded ? (config?.texts.closeChat ?? '') : v.unreadText ? `${v.title}, ${v.unreadText}` : v.title,
    );
    // Said once when the count changes, wherever focus is.
    if (unreadStatus.textContent !== v.unreadText) unreadStatus.textContent = v.unreadText;
    launcher.innerHTML = v.mode === 'button' ? (ls.expanded ? CLOSE_ICON : CHAT_ICON) : `${CHAT_ICON}<span class="label"></span>`;
    const label = launcher.querySelector('.label');
    if (label) label.textContent = v.title;
    badge.textContent = String(ls.unread);
    if (v.showBadge) launcher.appendChild(badge);
    frame.hidden = v.frameHidden;
  };

  const loadPanel = (): Promise<PanelHandle | undefined> => {
    if (panelLoading) return panelLoading;
    panelLoading = new Promise<PanelHandle | undefined>((resolve) => {
      w[PANEL_CALLBACK] = (factory: PanelFactory) => {
        delete w[PANEL_CALLBACK];
        resolve(
          guard(
            () =>
              factory({
                root,
                mount: frame,
                base,
                widgetId,
                style,
                config: config as PublicConfig,
                settings,
                identity: () => identity,
                notice,
                trigger: () => trigger,
                emit,
                collapse: () => setExpanded(false),
                setUnread: (n) => {
                  ls.unread = n;
                  draw();
                },
                setOnline: (value) => {
                  ls.online = value;
                  draw();
                },
              }),
            undefined,
          )(),
        );
      };
      const tag = document.createElement('script');
      tag.async = true;
      tag.src = `${base}/widget/${__PARLEY_PANEL__}`;
      tag.onerror = () => {
        panelLoading = undefined;
        resolve(undefined);
      };
      document.head.appendChild(tag);
    }).then((handle) => (panel = handle));
    return panelLoading;
  };

  const setExpanded = (value: boolean): void => {
    if (!ls.usable) return;
    peek?.remove();
    if (value) ls.wanted = true;
    const changed = value !== ls.expanded;
    ls.expanded = value;
    if (value) ls.unread = 0;
    // Full screen on a phone: the page behind must not scroll under the visitor's thumb.
    const page = document.documentElement.style;
    const mobile = view().mobile;
    if (value && mobile) {
      if (!page.getPropertyValue('--parley-overflow')) page.setProperty('--parley-overflow', page.overflow || 'visible');
      page.overflow = 'hidden';
    } else if (page.getPropertyValue('--parley-overflow')) {
      page.overflow = page.getPropertyValue('--parley-overflow') === 'visible' ? '' : page.getPropertyValue('--parley-overflow');
      page.removeProperty('--parley-overflow');
    }
    writeState(widgetId, { expanded: value });
    draw();
    if (value) {
      void loadPanel().then((p) => {
        if (!p || !ls.expanded) return;
        p.expand();
        if (changed) emit('expanded');
      });
    } else if (panel) {
      panel.collapse();
      if (changed) emit('collapsed');
      // Focus goes back to the launcher that opened the dialog (on a phone too).
      if (style !== 'inline') launcher.focus();
    }
  };

  launcher.addEventListener(
    'click',
    guard(() => setExpanded(!ls.expanded), undefined),
  );
  launcher.addEventListener(
    'pointerenter',
    guard(() => void loadPanel(), undefined),
  );
  launcher.addEventListener(
    'focus',
    guard(() => void loadPanel(), undefined),
  );
  guard(() => matchMedia(MOBILE_QUERY).addEventListener('change', draw), undefined)();

  const api = {
    identify: (userId?: string, traits?: Record<string, unknown>) => {
      identity = cleanIdentity(userId, traits);
      panel?.refresh(true);
    },
    show: (options?: { expanded?: boolean }) => {
      ls.wanted = true;
      whenConfigured(() => (options?.expanded ? setExpanded(true) : draw()));
    },
    hide: () => {
      ls.wanted = false;
      whenConfigured(() => {
        setExpanded(false);
        draw();
      });
    },
    open: () => whenConfigured(() => setExpanded(true)),
    isShown: () => ls.usable && ls.wanted && host.style.display !== 'none',
    isOnline: () => (panel ? panel.isOnline() : ls.online),
    send: (text: string) =>
      whenConfigured(() => {
        if (ls.usable) void loadPanel().then((p) => p?.send(String(text)));
      }),
    configure: (values: VisitorSettings) => {
      overrides = { ...overrides, ...values };
      whenConfigured(draw);
      panel?.refresh();
    },
    reset: () => {
      identity = undefined;
      writeState(widgetId, null);
      ls.unread = 0;
      panel?.reset();
      whenConfigured(() => setExpanded(false));
    },
    on: (event: string, fn: Listener) => {
      if (typeof fn === 'function') (listeners[event] ??= []).push(fn);
    },
  };
  const publicApi: Record<string, unknown> = { _loaded: true };
  for (const [name, fn] of Object.entries(api)) {
    const fallback = name === 'isShown' || name === 'isOnline' ? false : undefined;
    publicApi[name] = guard(fn as (...args: unknown[]) => unknown, fallback);
  }
  w.parley = publicApi;
  for (const [name, args] of queued) {
    const fn = publicApi[name];
    if (typeof fn === 'function') (fn as (...a: unknown[]) => unknown)(...(Array.isArray(args) ? args : []));
  }

  const mountHost = (): void => {
    if (style === 'inline') {
      const target = document.getElementById('parley-inline');
      if (!target) {
        console.warn('[parley] the inline widget needs an element with id="parley-inline"');
        ls.usable = false;
        return;
      }
      host.setAttribute('style', 'all:initial;display:block;width:100%;height:100%');
      target.appendChild(host);
    } else {
      document.body.appendChild(host);
    }
  };

  /** Proactive triggers: a message peeks out of the launcher after `after` seconds, at most once per minDelay. */
  const armTriggers = (): void => {
    const set = settings().triggers;
    for (const t of set?.triggers ?? []) {
      if (!onPage(t, location.href, location.pathname)) continue;
      setTimeout(
        guard(() => {
          const stored = readState(widgetId);
          if (ls.expanded || peek?.isConnected || stored.ongoing || Date.now() - (stored.triggeredAt ?? 0) < (set?.minDelay ?? 60) * 60_000)
            return;
          if (host.style.display === 'none' || !ls.online) return;
          writeState(widgetId, { triggeredAt: Date.now() });
          const close = document.createElement('button');
          close.className = 'x';
          close.type = 'button';
          close.setAttribute('aria-label', config?.texts.dismiss ?? '');
          close.textContent = '×';
          const card = document.createElement('div');
          card.className = `peek${settings().widgetAlignment === 'bottomLeft' ? ' left' : ''}`;
          card.setAttribute('role', 'status');
          const text = document.createElement('span');
          text.textContent = t.message;
          card.append(text, close);
          card.addEventListener(
            'click',
            guard((event: Event) => {
              card.remove();
              if (event.target === close) return;
              trigger = t;
              setExpanded(true);
            }, undefined),
          );
          peek = card;
          root.appendChild(card);
          void loadPanel();
        }, undefined),
        Math.max(0, t.after) * 1000,
      );
    }
  };

  /**
   * Exchanges a mail link's resume token for its visitor's token, or keeps why not (the panel takes the token out of
   * the address bar).
   * Sent as a simple request (no preflight): the endpoint reads its body as JSON whatever the type.
   */
  const resumeChat = (token: string): Promise<void> =>
    fetch(`${base}/widget/api/${encodeURIComponent(widgetId)}/resume`, { method: 'POST', body: JSON.stringify({ token }) })
      .then((res) => res.json())
      .then(
        (body: { visitorToken?: string; Error?: string }) => {
          if (body.visitorToken) writeState(widgetId, { token: body.visitorToken, ongoing: true, accepted: true, infoGiven: true });
          else notice = body.Error;
        },
        () => {
          notice = 'resume_invalid';
        },
      );

  // The browser's languages pick the widget's: the server matches them to its translations and answers only that one.
  // Parley out of reach or failing (a deploy, the database failing over: no answer or a 5xx) is asked again 5 and 15 s
  // later; a refusal (4xx: an unknown widget) is not.
  const ask = (tries: number): unknown =>
    // Fetch's default credentials: a site's page (another origin than Parley's) sends no cookie.
    fetch(`${base}/widget/api/${encodeURIComponent(widgetId)}/config?lang=${encodeURIComponent(String(navigator.languages))}`)
      // A refused configuration is warned as its status alone (the loader's budget has no room for more words).
      .then((res) => (res.ok ? (res.json() as Promise<PublicConfig>) : Promise.reject(res.status)))
      .then(
        guard((loaded: PublicConfig) => {
          config = loaded;
          // Arabic and Hebrew read right to left: the launcher's label and the whole panel follow the host's direction.
          host.setAttribute('dir', loaded.dir);
          host.setAttribute('lang', loaded.locale);
          ls.online = loaded.online;
          ls.hideWhenOffline = !!loaded.hideWhenOffline;
          ls.usable = loaded.allowed !== false && !blacklisted(loaded.settings?.blacklistedUrls, location.href);
          mountHost();
          const stored = readState(widgetId);
          draw();
          for (const fn of waiting.splice(0)) fn();
          // The link of a mail of unseen replies (#parley-open=<resume token>) opens the chat on that conversation, in any
          // browser: the token is exchanged for the visitor's token (the browser becomes that visitor) before the panel.
          const fromMail = location.hash.startsWith('#parley-open');
          const resume = fromMail && location.hash.includes('.') && location.hash.slice(13);
          if (ls.usable && (style === 'inline' || fromMail || stored.ongoing || (stored.pending?.length ?? 0) > 0)) {
            void (resume ? resumeChat(resume) : Promise.resolve())
              .then(() => loadPanel())
              .then(() => {
                if (fromMail || (stored.expanded && stored.ongoing)) setExpanded(true);
                else if (style === 'inline') panel?.expand();
              });
          }
          if (ls.usable) armTriggers();
          emit('ready');
        }, undefined),
      )
      .catch((error: unknown) =>
        tries < 3 && !((error as number) < 500)
          ? setTimeout(ask, 5e3 * tries, tries + 1)
          : console.warn('[parley] the chat could not start:', error),
      );
  ask(1);
}

guard(() => {
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', guard(start, undefined));
}, undefined)();
