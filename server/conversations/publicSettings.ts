/**
 * What a visitor's browser may know about a widget: exactly the keys of VISITOR_SETTING_KEYS, plus its enabled
 * triggers. Sent by the widget API (its config call) and by the relay (a config frame after a settings change).
 */
import type { ChatEndpoint } from '../models/ChatEndpoint';
import { type PublicWidgetSettings, VISITOR_SETTING_KEYS } from '../shared/widget-config';

type TriggerJson = { minDelay?: unknown; matchType?: unknown; triggers?: unknown };
type RawTrigger = {
  uid?: unknown;
  message?: unknown;
  after?: unknown;
  on?: unknown;
  matchType?: unknown;
  exact?: unknown;
  enabled?: unknown;
  displayStyle?: unknown;
};

/** The enabled triggers of a widget, normalised (legacy `exact: true` reads as matchType exact). */
export function publicTriggers(triggerJson: string): PublicWidgetSettings['triggers'] {
  let parsed: TriggerJson = {};
  try {
    parsed = JSON.parse(triggerJson || '{}') as TriggerJson;
  } catch {
    parsed = {};
  }
  const defaultMatch = typeof parsed.matchType === 'string' ? parsed.matchType : 'contains';
  const list = Array.isArray(parsed.triggers) ? (parsed.triggers as RawTrigger[]) : [];
  return {
    minDelay: typeof parsed.minDelay === 'number' ? parsed.minDelay : 60,
    triggers: list
      .filter((t) => t && t.enabled === true && typeof t.message === 'string' && t.message !== '')
      .map((t) => ({
        uid: typeof t.uid === 'string' ? t.uid : '',
        message: String(t.message),
        after: typeof t.after === 'number' ? t.after : Number(t.after) || 0,
        on: Array.isArray(t.on) ? t.on.filter((p): p is string => typeof p === 'string') : [],
        matchType: t.exact === true ? 'exact' : typeof t.matchType === 'string' ? t.matchType : defaultMatch,
        displayStyle: typeof t.displayStyle === 'string' ? t.displayStyle : 'peek',
      })),
  };
}

/** What publicSettings reads of a widget. */
export const PUBLIC_SETTINGS_FIELDS = [...VISITOR_SETTING_KEYS, 'triggerJson'] as const satisfies readonly (keyof ChatEndpoint)[];

/**
 * What the widget gets of its settings. `plan.triggers` is whether the plan that applies now has triggers: without
 * it none are sent (they stay stored, and come back on a plan with triggers).
 */
export function publicSettings(
  ce: Pick<ChatEndpoint, (typeof PUBLIC_SETTINGS_FIELDS)[number]>,
  plan: { triggers: boolean },
): PublicWidgetSettings {
  const out: Record<string, unknown> = {};
  for (const key of VISITOR_SETTING_KEYS) out[key] = ce[key];
  const triggers = publicTriggers(ce.triggerJson);
  return {
    ...(out as Pick<ChatEndpoint, (typeof VISITOR_SETTING_KEYS)[number]>),
    triggers: plan.triggers ? triggers : { ...triggers, triggers: [] },
  };
}
