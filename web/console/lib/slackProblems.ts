/**
 * What the console says when a Slack authorisation comes back with ?error=code (the OAuth callback's codes,
 * and Slack's own access_denied when the person cancels the consent).
 */
const PROBLEMS: Record<string, string> = {
  access_denied: 'You cancelled the Slack authorisation, so nothing was added to Slack. Start again whenever you are ready.',
  wrong_team: 'That approval was for another Slack workspace. Approve Parley in the workspace this widget uses.',
  wrong_user: 'Only the main Slack user of this widget can approve more permissions.',
  plan_limit: 'Your plan has no room for another channel. Upgrade your plan to add one.',
  widget_not_found: 'This widget no longer exists, so the Slack authorisation was not used.',
};

const FALLBACK = 'Slack could not complete the authorisation. Please try again.';

/** The sentence for an error code, or null when there is none. */
export function slackProblem(code: string | null): string | null {
  if (!code) return null;
  return Object.hasOwn(PROBLEMS, code) ? (PROBLEMS[code] ?? FALLBACK) : FALLBACK;
}

/** Where a screen that deleted a widget sends the user: the dashboard, which confirms it. */
export type DashboardNotice = { notice?: string };
export const WIDGET_DELETED = 'Widget deleted.';
