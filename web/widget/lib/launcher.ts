/**
 * The loader's decisions, apart from its DOM (loader.ts draws what these answer): how the launcher looks and
 * whether it shows, which pages a trigger or the blacklist matches, and what of
 * identify()'s arguments reaches the hello frame. Pure functions, unit tested in test/widget/launcher.unit.spec.ts.
 */
import { EMAIL_CHARS, NAME_CHARS } from '../../../server/shared/widget-constants';
import type { UiTexts } from '../../../server/shared/widget-texts';
import type { Identity, Trigger, VisitorSettings, WidgetStyleName } from './types';

/** What the loader knows at a moment; `draw` renders it. */
export type LauncherState = {
  style: WidgetStyleName;
  /** Chat is allowed here (not a blacklisted page, not a denied visitor) and the host element is mounted. */
  usable: boolean;
  /** show()/hide() of the site's API. */
  wanted: boolean;
  online: boolean;
  hideWhenOffline: boolean;
  /** A conversation is going on (localStorage): an open chat stays reachable while offline. */
  ongoing: boolean;
  expanded: boolean;
  unread: number;
  /** The screen is phone-sized. */
  phone: boolean;
};

export type CollapsedMode = 'chip' | 'tab' | 'button' | 'hidden';

export type LauncherView = {
  visible: boolean;
  mode: CollapsedMode;
  left: boolean;
  /** Full screen on a phone (not for inline). */
  mobile: boolean;
  title: string;
  launcherHidden: boolean;
  frameHidden: boolean;
  showBadge: boolean;
  /** The unread count in words for screen readers (the launcher's name and a polite status), '' when none. */
  unreadText: string;
};

/**
 * The unread count in the visitor's language: the widget's texts, which the configuration brings before the panel
 * can count anything unread (no count is shown without them).
 */
export type UnreadTexts = Pick<UiTexts, 'unreadOne' | 'unreadMany'>;

export function launcherView(state: LauncherState, settings: VisitorSettings, texts?: UnreadTexts): LauncherView {
  const visible = state.usable && state.wanted && (state.online || !state.hideWhenOffline || state.ongoing);
  const mobile = state.style !== 'inline' && state.phone;
  // The collapsed look: chip and tab become a round button on small screens (spec: collapsed modes).
  const configured = settings.collapsedMode ?? 'default';
  const chosen = (configured === 'default' ? (state.style === 'sidebar' ? 'tab' : 'chip') : configured) as CollapsedMode;
  const mode = chosen !== 'hidden' && mobile ? 'button' : chosen;
  return {
    visible,
    mode,
    left: settings.widgetAlignment === 'bottomLeft',
    mobile,
    title: (state.online ? settings.onlineTitle : settings.offlineTitle) || (state.online ? 'Chat with us' : 'Leave a message'),
    launcherHidden: state.style === 'inline' || mode === 'hidden' || (state.expanded && (mode !== 'button' || mobile)),
    frameHidden: !visible || (!state.expanded && state.style !== 'inline'),
    showBadge: state.unread > 0 && !state.expanded,
    unreadText:
      state.unread > 0 && !state.expanded && texts
        ? (state.unread === 1 ? texts.unreadOne : texts.unreadMany).replace('{count}', String(state.unread))
        : '',
  };
}

/** The site's blacklist: one pattern a line (or comma), a regular expression or, when it is not one, a substring. */
export function blacklisted(patterns: string | undefined, href: string): boolean {
  return (patterns ?? '')
    .split(/[\n,]+/)
    .map((p) => p.trim())
    .filter(Boolean)
    .some((p) => {
      try {
        return new RegExp(p).test(href);
      } catch {
        return href.includes(p);
      }
    });
}

/** A trigger's pages: empty means every page; each entry matches the full address or the path. */
export function onPage(trigger: Trigger, href: string, pathname: string): boolean {
  return (
    trigger.on.length === 0 ||
    trigger.on.some((p) =>
      [href, pathname].some((here) =>
        trigger.matchType === 'exact' ? here === p : trigger.matchType === 'startsWith' ? here.startsWith(p) : here.includes(p),
      ),
    )
  );
}

/** identify()'s arguments, cut to what the hello frame accepts: a bad trait must not cost the visitor their chat. */
export function cleanIdentity(userId: unknown, traits: Record<string, unknown> | undefined): Identity {
  const clean: NonNullable<Identity['traits']> = {};
  const { userHash, ...rest } = traits ?? {};
  for (const [key, value] of Object.entries(rest).slice(0, 50)) {
    if (typeof value === 'string') clean[key.slice(0, 100)] = value.slice(0, 500);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) clean[key.slice(0, 100)] = value;
  }
  const name = typeof clean.name === 'string' ? clean.name.trim().slice(0, NAME_CHARS) : '';
  const email = typeof clean.email === 'string' ? clean.email.trim() : '';
  return {
    userId: userId == null ? undefined : String(userId).slice(0, 200),
    name: name || undefined,
    email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= EMAIL_CHARS ? email : undefined,
    traits: clean,
    // Only ever sent to Parley, never kept as a trait; a malformed one is left out (the identity is then unverified).
    userHash: typeof userHash === 'string' && /^[0-9a-f]{64}$/i.test(userHash) ? userHash : undefined,
  };
}
