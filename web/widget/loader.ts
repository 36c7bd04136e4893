/**
 * /widget.js: the loader the embed snippet puts on a site. Framework-free and small (≤ 5 KB gzipped): it
 * reads its <script> tag, fetches the widget's public configuration, draws the launcher inside a shadow root,
 * serves `window.parley` (replaying calls queued by the snippet's stub) and loads the chat panel only when it is
 * needed: hover, click, open(), send(), or an ongoing conversation remembered in localStorage.
 * Nothing here may break the host page: every entry point catches its errors.
 */

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
  let online = false;
  /** The site may show or hide the widget through the API; blacklisted pages and denied visitors never show it. */
  let wanted = true;
  let usable = false;
  let expanded = false;
  let unread = 0;
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
  const frame = document.createElement('div');
  frame.className = 'frame';
  frame.hidden = true;
  root.append(launcher, frame);

  const mobile = (): boolean => style !== 'inline' && matchMedia(MOBILE_QUERY).matches;

  /** The collapsed look: chip and tab become a round button on small screens (spec: collapsed modes). */
  const mode = (): string => {
    const configured = settings().collapsedMode ?? 'default';
    const chosen = configured === 'default' ? (style === 'sidebar' ? 'tab' : 'chip') : configured;
    return chosen !== 'hidden' && mobile() ? 'button' : chosen;
  };

  const draw = (): void => {
    const s = settings();
    // Hidden while offline only when no conversation is going on: an open chat stays reachable.
    const visible = usable && wanted && (online || !config?.hideWhenOffline || !!readState(widgetId).ongoing);
    host.style.display = visible ? (style === 'inline' ? 'block' : '') : 'none';
    css.textContent = launcherCss(s.titleColor || '#2f6fed', s.titleFontColor || '#fff');
    const left = s.widgetAlignment === 'bottomLeft';
    const m = mode();
    host.setAttribute('data-mode', m);
    frame.className = `frame ${style}${left ? ' left' : ''}${mobile() ? ' mobile' : ''}`;
    launcher.className = `launcher ${m}${left ? ' left' : ''}`;
    const title = (online ? s.onlineTitle : s.offlineTitle) || (online ? 'Chat with us' : 'Leave a message');
    launcher.hidden = style === 'inline' || m === 'hidden' || (expanded && (m !== 'button' || mobile()));
    launcher.setAttribute('aria-expanded', String(expanded));
    launcher.setAttribute('aria-label', expanded ? 'Close chat' : title);
    launcher.innerHTML = m === 'button' ? (expanded ? CLOSE_ICON : CHAT_ICON) : `${CHAT_ICON}<span class="label"></span>`;
    const label = launcher.querySelector('.label');
    if (label) label.textContent = title;
    badge.textContent = String(unread);
    if (unread > 0 && !expanded) launcher.appendChild(badge);
    frame.hidden = !visible || (!expanded && style !== 'inline');
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
                trigger: () => trigger,
                emit,
                collapse: () => setExpanded(false),
                setUnread: (n) => {
                  unread = n;
                  draw();
                },
                setOnline: (value) => {
                  online = value;
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
    if (!usable) return;
    peek?.remove();
    if (value && !wanted) wanted = true;
    const changed = value !== expanded;
    expanded = value;
    if (value) unread = 0;
    // Full screen on a phone: the page behind must not scroll under the visitor's thumb.
    const page = document.documentElement.style;
    if (value && mobile()) {
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
        if (!p || !expanded) return;
        p.expand();
        if (changed) emit('expanded');
      });
    } else if (panel) {
      panel.collapse();
      if (changed) emit('collapsed');
      if (style === 'standard' && !mobile()) launcher.focus();
    }
  };

  launcher.addEventListener(
    'click',
    guard(() => setExpanded(!expanded), undefined),
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
      // Only what the hello frame accepts: a bad trait must not cost the visitor their chat.
      const clean: NonNullable<Identity['traits']> = {};
      for (const [key, value] of Object.entries(traits ?? {}).slice(0, 50)) {
        if (typeof value === 'string') clean[key.slice(0, 100)] = value.slice(0, 500);
        else if (typeof value === 'number' || typeof value === 'boolean' || value === null) clean[key.slice(0, 100)] = value;
      }
      const name = typeof clean.name === 'string' ? clean.name.trim().slice(0, 100) : '';
      const email = typeof clean.email === 'string' ? clean.email.trim() : '';
      identity = {
        userId: userId == null ? undefined : String(userId).slice(0, 200),
        name: name || undefined,
        email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254 ? email : undefined,
        traits: clean,
      };
      panel?.refresh(true);
    },
    show: (options?: { expanded?: boolean }) => {
      wanted = true;
      whenConfigured(() => (options?.expanded ? setExpanded(true) : draw()));
    },
    hide: () => {
      wanted = false;
      whenConfigured(() => {
        setExpanded(false);
        draw();
      });
    },
    open: () => whenConfigured(() => setExpanded(true)),
    isShown: () => usable && wanted && host.style.display !== 'none',
    isOnline: () => (panel ? panel.isOnline() : online),
    send: (text: string) =>
      whenConfigured(() => {
        if (usable) void loadPanel().then((p) => p?.send(String(text)));
      }),
    configure: (values: VisitorSettings) => {
      overrides = { ...overrides, ...values };
      whenConfigured(draw);
      panel?.refresh();
    },
    reset: () => {
      identity = undefined;
      writeState(widgetId, null);
      unread = 0;
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

  const blacklisted = (patterns: string | undefined): boolean =>
    (patterns ?? '')
      .split(/[\n,]+/)
      .map((p) => p.trim())
      .filter(Boolean)
      .some((p) => {
        try {
          return new RegExp(p).test(location.href);
        } catch {
          return location.href.includes(p);
        }
      });

  const mountHost = (): void => {
    if (style === 'inline') {
      const target = document.getElementById('parley-inline');
      if (!target) {
        console.warn('[parley] the inline widget needs an element with id="parley-inline"');
        usable = false;
        return;
      }
      host.setAttribute('style', 'all:initial;display:block;width:100%;height:100%');
      target.appendChild(host);
    } else {
      document.body.appendChild(host);
    }
  };

  /** A trigger's pages: empty means every page; each entry matches the full address or the path. */
  const onPage = (t: Trigger): boolean =>
    t.on.length === 0 ||
    t.on.some((p) =>
      [location.href, location.pathname].some((here) =>
        t.matchType === 'exact' ? here === p : t.matchType === 'startsWith' ? here.startsWith(p) : here.includes(p),
      ),
    );

  /** Proactive triggers: a message peeks out of the launcher after `after` seconds, at most once per minDelay. */
  const armTriggers = (): void => {
    const set = settings().triggers;
    for (const t of set?.triggers ?? []) {
      if (!onPage(t)) continue;
      setTimeout(
        guard(() => {
          const last = readState(widgetId).triggeredAt ?? 0;
          if (expanded || peek?.isConnected || readState(widgetId).ongoing || Date.now() - last < (set?.minDelay ?? 60) * 60_000) return;
          if (host.style.display === 'none' || !online) return;
          writeState(widgetId, { triggeredAt: Date.now() });
          const close = document.createElement('button');
          close.className = 'x';
          close.type = 'button';
          close.setAttribute('aria-label', 'Dismiss');
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

  fetch(`${base}/widget/api/${encodeURIComponent(widgetId)}/config`, { credentials: 'omit' })
    .then((res) => (res.ok ? (res.json() as Promise<PublicConfig>) : Promise.reject(new Error(`config answered ${res.status}`))))
    .then(
      guard((loaded: PublicConfig) => {
        config = loaded;
        online = loaded.online;
        usable = loaded.allowed !== false && !blacklisted(loaded.settings?.blacklistedUrls);
        mountHost();
        const stored = readState(widgetId);
        draw();
        for (const fn of waiting.splice(0)) fn();
        if (usable && (style === 'inline' || stored.ongoing || (stored.pending?.length ?? 0) > 0)) {
          void loadPanel().then(() => {
            if (stored.expanded && stored.ongoing) setExpanded(true);
            else if (style === 'inline') panel?.expand();
          });
        }
        if (usable) armTriggers();
        emit('ready');
      }, undefined),
    )
    .catch((error: unknown) => console.warn('[parley] the chat could not start:', error));
}

guard(() => {
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', guard(start, undefined));
}, undefined)();
