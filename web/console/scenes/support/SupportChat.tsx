/**
 * Parley's own chat widget inside the Support page: the embed snippet's loader (/widget.js) in its inline style,
 * with the signed-in user identified (user id, e-mail, account; verified with a userHash the server signs when the
 * support widget has an identity secret), so the Parley team sees who is asking. The loader
 * runs once per page load; when the Support page is left and opened again, the chat it drew moves into the new box.
 */
import { useEffect, useRef } from 'react';
import type { CurrentUser } from '../../../../server/shared';

type ParleyApi = { _loaded?: boolean; _q?: [string, unknown[]][]; identify?: (userId: string, traits: object) => void; reset?: () => void };
type ParleyWindow = Window & { parley?: ParleyApi };

/** Who the support chat was last identified as in this browser: another user starts a chat of their own. */
const LAST_USER_KEY = 'parley:support-user';
/** Where the chat waits, hidden, while the Support page is not shown. */
const HOLDER_ID = 'parley-support-holder';

function switchUser(userId: string): boolean {
  try {
    const last = localStorage.getItem(LAST_USER_KEY);
    localStorage.setItem(LAST_USER_KEY, userId);
    return last !== null && last !== userId;
  } catch {
    // Storage off (privacy modes): nothing is remembered, so there is nobody else's chat to leave.
    return false;
  }
}

export function SupportChat({ widgetId, userHash, user }: { widgetId: string; userHash: string | null; user: CurrentUser }) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const w = window as ParleyWindow;
    const traits = {
      email: user.email,
      accountId: user.account.Id,
      company: user.account.orgName,
      plan: user.account.plan.label,
      // Signed by Parley's server when the support widget has an identity secret: the team sees a verified user.
      ...(userHash ? { userHash } : {}),
    };
    const another = switchUser(user.Id);
    // The chat keeps its socket and its history while the page is away: parked, hidden, until the box is back.
    const park = () => {
      const drawn = el.querySelector('parley-widget');
      if (!drawn) return;
      let holder = document.getElementById(HOLDER_ID);
      if (!holder) {
        holder = document.createElement('div');
        holder.id = HOLDER_ID;
        holder.hidden = true;
        document.body.appendChild(holder);
      }
      holder.appendChild(drawn);
    };
    const parked = document.querySelector(`#${HOLDER_ID} parley-widget`);
    if (w.parley?._loaded && parked) {
      el.appendChild(parked);
      if (another) w.parley.reset?.();
      w.parley.identify?.(user.Id, traits);
      return park;
    }
    if (document.querySelector('script[data-parley-support]')) return park;
    // The snippet's stub: the loader replays these calls once it runs.
    w.parley = { _q: [...(another ? [['reset', []] as [string, unknown[]]] : []), ['identify', [user.Id, traits]]] };
    const script = document.createElement('script');
    script.async = true;
    script.src = '/widget.js';
    script.setAttribute('data-widget-id', widgetId);
    script.setAttribute('data-style', 'inline');
    script.setAttribute('data-parley-support', '');
    document.body.appendChild(script);
    return park;
  }, [widgetId, userHash, user]);

  return <div id="parley-inline" ref={box} className="support-chat__box" />;
}
