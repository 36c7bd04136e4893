/** Pure rules of the dashboard (spec "Dashboard" and section 4): teams, card states, trial and banners. */
import {
  type AccountView,
  type ChatEndpointView,
  type ChatStats,
  type CurrentUser,
  lossBetween,
  PLAN_FEATURE_NAMES,
  type PlanFeature,
} from '../../../../server/shared';
import { formatCents } from '../../lib/billingTexts';
import { isConfigured, stepOf } from '../../lib/rules';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long after the trial's end the dashboard says what it switched off. */
const SWITCHED_OFF_BANNER_DAYS = 30;

export type DashboardWidget = ChatEndpointView & { chatStats?: ChatStats };

export type TeamGroup = {
  key: string;
  /** Display name: the name Slack gave, else the one read from the base URL. */
  name: string;
  /** Sort key: the name derived from the team's base URL (spec). */
  sortName: string;
  connected: boolean;
  mainUser: string;
  /** A widget of the team the Slack calls go through: a configured one when there is one. */
  anchor: DashboardWidget | undefined;
  revoked: boolean;
  widgets: DashboardWidget[];
};

/**
 * The team's name as its base URL says it: https://acme.slack.com/ → acme; the Slack sandbox's
 * http://host/sandbox/slack/workspaces/acme/ → acme. '' when there is no usable URL.
 */
export function teamNameFromBaseUrl(baseUrl: string): string {
  if (!baseUrl) return '';
  try {
    const url = new URL(baseUrl);
    const workspace = /\/workspaces\/([^/]+)/.exec(url.pathname);
    if (workspace?.[1]) return decodeURIComponent(workspace[1]);
    const host = url.hostname;
    return host.endsWith('.slack.com') ? host.slice(0, -'.slack.com'.length) : host;
  } catch {
    return baseUrl;
  }
}

/** Channel name without the leading #, for sorting and display. */
export function channelName(ce: Pick<ChatEndpointView, 'RoomName'>): string {
  return ce.RoomName.replace(/^#/, '');
}

/** Widgets grouped by Slack team, teams sorted alphabetically, cards by channel name; unlinked widgets last. */
export function groupByTeam(widgets: readonly DashboardWidget[]): TeamGroup[] {
  const groups = new Map<string, DashboardWidget[]>();
  for (const ce of widgets) {
    const key = ce.slackTeamId || ce.slackBaseUrl || '';
    groups.set(key, [...(groups.get(key) ?? []), ce]);
  }
  const teams: TeamGroup[] = [...groups.entries()].map(([key, list]) => {
    const sorted = [...list].sort(compareCards);
    const withUrl = sorted.find((ce) => ce.slackBaseUrl);
    const derived = teamNameFromBaseUrl(withUrl?.slackBaseUrl ?? '');
    const named = sorted.find((ce) => ce.slackTeamName)?.slackTeamName ?? '';
    const anchor = sorted.find(isConfigured) ?? sorted.find((ce) => stepOf(ce) >= 2);
    const withUser = sorted.find((ce) => ce.slackMainUserName || ce.slackMainUser);
    return {
      key,
      name: named || derived || (key ? 'Slack team' : ''),
      sortName: (derived || named).toLowerCase(),
      connected: key !== '',
      mainUser: withUser ? withUser.slackMainUserName || withUser.slackMainUser : '',
      anchor,
      revoked: sorted.some((ce) => ce.installationRevoked),
      widgets: sorted,
    };
  });
  return teams.sort((a, b) => {
    if (a.connected !== b.connected) return a.connected ? -1 : 1;
    return a.sortName.localeCompare(b.sortName) || a.name.localeCompare(b.name);
  });
}

/** Configured cards by channel name; unfinished ones after them, oldest first. */
function compareCards(a: DashboardWidget, b: DashboardWidget): number {
  const ac = isConfigured(a);
  const bc = isConfigured(b);
  if (ac !== bc) return ac ? -1 : 1;
  return channelName(a).localeCompare(channelName(b)) || (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0);
}

/** The server says whether a widget is online; older answers without the flag fall back to the spec's rule. */
export function isWidgetOnline(ce: DashboardWidget): boolean {
  if (typeof ce.online === 'boolean') return ce.online;
  return isConfigured(ce) && !ce.off && ce.status !== 'offline';
}

/** An unfinished widget's Delete button hides when it is the user's only widget and already has a Slack team. */
export function canDeleteUnfinished(ce: DashboardWidget, all: readonly DashboardWidget[]): boolean {
  return !(all.length === 1 && ce.slackBaseUrl !== '');
}

/** The daily counts of the 30-day window, oldest first, for the sparkline (at most 30 bars). */
export function sparklineDays(stats: ChatStats): { date: string; value: number }[] {
  return stats.dailyCounts30d.slice(-30).map((day) => ({ date: day.date, value: Math.max(0, Number(day.chats) || 0) }));
}

export function formatAverage(avg: number): string {
  return (Number.isFinite(avg) ? avg : 0).toFixed(1);
}

/** Whole days from now to trialEndAt, minus one when no card is on file (spec section 4). */
export function trialDaysLeft(account: Pick<AccountView, 'trialEndAt' | 'paymentType'>, now: Date = new Date()): number | null {
  if (!account.trialEndAt) return null;
  const end = Date.parse(account.trialEndAt);
  if (Number.isNaN(end)) return null;
  const days = Math.ceil((end - now.getTime()) / DAY_MS);
  return account.paymentType === 'none' ? days - 1 : days;
}

export function trialMessage(days: number): string {
  if (days > 0) return `There ${days === 1 ? 'is 1 day' : `are ${days} days`} left on the trial.`;
  if (days === 0) return 'Your trial expires today';
  const ago = -days;
  return `Your trial expired ${ago} ${ago === 1 ? 'day' : 'days'} ago`;
}

/** What an expired or canceled account's widgets do, said on its banners. */
export const OFFLINE_UNTIL_PLAN =
  'Your widgets show visitors the offline form (their messages still reach you by e-mail) until you choose a plan.';

/**
 * 'Your trial expired N day(s) ago' once the trial is over. Stripe ends the trial on its own clock: when that
 * clock is ahead of this browser's (a test clock), the day count would be wrong, so it is left out.
 */
export function trialEndedMessage(account: Pick<AccountView, 'trialEndAt' | 'paymentType'>, now: Date = new Date()): string {
  const days = trialDaysLeft(account, now);
  return days !== null && days < 0 ? trialMessage(days) : 'Your trial has ended';
}

/** 'a, b and c'. */
export function listWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

type PlanAccount = Pick<AccountView, 'plan' | 'effectivePlan' | 'state' | 'firstChargeAt' | 'trialEndAt'>;

/** Whether the trial gives the account a bigger plan than the one it is billed for (the top self-serve plan). */
export function onTrialPlan(account: PlanAccount): boolean {
  return (account.state === 'trialing' || account.firstChargeAt !== null) && account.effectivePlan.stripeId !== account.plan.stripeId;
}

/**
 * The one name of the account's plan and trial, the same on the dashboard's plan chip and the Account page:
 * "Basic plan · free trial with every Business feature" during a trial that gives more than the plan, "Pro plan ·
 * free trial" during one that does not, else "Basic plan".
 */
export function planStateName(account: PlanAccount): string {
  const plan = `${account.plan.label} plan`;
  if (account.state !== 'trialing' && account.firstChargeAt === null) return plan;
  return onTrialPlan(account) ? `${plan} · free trial with every ${account.effectivePlan.label} feature` : `${plan} · free trial`;
}

/**
 * The one rule of the trial's countdown (spec section 4: whole days to trialEndAt, minus one without a card): the
 * days left and the day they count to, which is the last day to add a card (the trial's end with one).
 */
export function trialCountdown(
  account: Pick<AccountView, 'trialEndAt' | 'paymentType'>,
  now: Date = new Date(),
): { days: number; countsTo: Date } | null {
  const days = trialDaysLeft(account, now);
  if (days === null || !account.trialEndAt) return null;
  const end = Date.parse(account.trialEndAt);
  return { days, countsTo: new Date(account.paymentType === 'none' ? end - DAY_MS : end) };
}

/**
 * During the trial: everything it has (the top self-serve plan's features and limits), when it ends, and what the
 * plan the account is billed for then leaves out.
 */
export function trialPlanText(account: PlanAccount): string {
  const trial = account.effectivePlan;
  const features = (Object.keys(PLAN_FEATURE_NAMES) as PlanFeature[]).filter((f) => trial[f]).map((f) => PLAN_FEATURE_NAMES[f]);
  const limits = [
    trial.maxOperators === 0 ? 'unlimited operators' : `${trial.maxOperators} operators`,
    `${trial.maxChannels} ${trial.maxChannels === 1 ? 'channel' : 'channels'}`,
  ];
  // The date only with a card saved, when it is the one the banner names too; without one the banner's date is the
  // last day to add a card (trialCountdown), and a second, later date here would contradict it.
  const until =
    account.trialEndAt && account.firstChargeAt !== null ? ` until it ends on ${formatDate(account.trialEndAt)}` : ' until it ends';
  const lost = lossBetween(trial, account.plan);
  const then = [
    ...(lost.features.length > 0 ? [`without ${listWords(lost.features)}`] : []),
    ...(lost.limits.length > 0 ? [`with ${listWords(lost.limits)}`] : []),
  ];
  return `Your trial has every ${trial.label} feature${until}: ${listWords([...features, ...limits])}. Then your ${account.plan.label} plan applies${
    then.length > 0 ? `: ${then.join(', and ')}` : ''
  }. Anything you set up is kept either way.`;
}

/** Whether the trial's end took anything away that the console should say (once the plan is paid for). */
export function lostSinceTrial(account: Pick<AccountView, 'state' | 'switchedOff' | 'lowerLimits'>): boolean {
  return account.state === 'paying' && (account.switchedOff.length > 0 || account.lowerLimits.length > 0);
}

/** After the trial: exactly what its end switched off (their settings kept), and the plan's lower limits. */
export function switchedOffText(account: Pick<AccountView, 'plan' | 'switchedOff' | 'lowerLimits'>): string {
  const { label } = account.plan;
  const off =
    account.switchedOff.length > 0
      ? `Your trial has ended, and your ${label} plan does not include ${listWords(account.switchedOff)}: these are switched off. Their settings are kept and come back when you upgrade.`
      : 'Your trial has ended.';
  const limits = account.lowerLimits.length > 0 ? ` ${label}'s limits apply now: ${listWords(account.lowerLimits)}.` : '';
  return `${off}${limits}`;
}

export type Banner = {
  id: string;
  kind: 'error' | 'warning' | 'info';
  title?: string;
  text: string;
  link?: { to: string; label: string };
};

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

/** The banners the account and widgets call for, most urgent first. */
export function bannersFor(
  user: Pick<CurrentUser, 'account' | 'admin'>,
  widgets: readonly DashboardWidget[],
  now: Date = new Date(),
): Banner[] {
  const { account } = user;
  const banners: Banner[] = [];
  // During the trial, its banner also says what it includes.
  const trialPlan = onTrialPlan(account) ? ` Until then every ${account.effectivePlan.label} feature is on.` : '';
  for (const team of groupByTeam(widgets).filter((t) => t.revoked)) {
    const target = team.anchor ?? team.widgets[0];
    banners.push({
      id: `revoked-${team.key}`,
      kind: 'error',
      title: 'Parley was removed from Slack',
      text: `Parley no longer has access to ${team.name}, so its widgets are offline. Nothing was deleted: approve Parley again to bring them back.`,
      link: target ? { to: `/permissions/${target.Id}`, label: 'Reconnect Slack' } : undefined,
    });
  }
  const legacy = widgets.find((ce) => ce.OauthV1);
  if (legacy) {
    banners.push({
      id: 'legacy',
      kind: 'warning',
      title: 'Action Required',
      text: 'Slack shut down the legacy bot API on 31 March 2025. Widgets still using the legacy Slack authorisation must be upgraded to keep working.',
      link: { to: '/permissions', label: 'Update Slack permissions' },
    });
  }
  if (account.quota.isOverquota) {
    banners.push({
      id: 'overquota',
      kind: 'error',
      text: `You are overquota: ${account.quota.reason}. Time to upgrade your plan!`,
      link: { to: '/account', label: 'Upgrade' },
    });
  }
  if (account.delinquent) {
    banners.push({
      id: 'delinquent',
      kind: 'error',
      text: 'You account is delinquent. Please update your credit card now.',
      link: { to: '/account', label: 'Update credit card' },
    });
  }
  if (account.cancelAt && Date.parse(account.cancelAt) > now.getTime()) {
    const days = Math.ceil((Date.parse(account.cancelAt) - now.getTime()) / DAY_MS);
    banners.push({
      id: 'ending',
      kind: 'warning',
      text: `Your subscription was canceled and ends in ${days} ${days === 1 ? 'day' : 'days'}, on ${formatDate(account.cancelAt)}.`,
      link: { to: '/account', label: 'Renew subscription' },
    });
  }
  if (user.admin && account.paymentType !== 'none' && account.billingAddressLine1.trim() === '') {
    banners.push({
      id: 'billing-address',
      kind: 'warning',
      text: 'Your billing address is missing. Please add it so your invoices are complete.',
      link: { to: '/account', label: 'Add billing address' },
    });
  }
  const countdown = account.state === 'trialing' ? trialCountdown(account, now) : null;
  if (countdown) {
    const { days, countsTo } = countdown;
    banners.push({
      id: 'trial',
      kind: days <= 3 ? 'warning' : 'info',
      // One date only, the one the days count to (trialCountdown): a second, later end date beside it reads as a
      // contradiction.
      text:
        (days > 0
          ? `${trialMessage(days)} Add a card by ${formatDate(countsTo.toISOString())} to keep your widgets online after it. Nothing is charged before the trial ends.`
          : `${trialMessage(days)}: add a card today to keep your widgets online. Nothing is charged before the trial ends.`) +
        trialPlan.replace('Until then', 'Until it ends'),
      link: { to: '/account', label: 'Add payment method' },
    });
  }
  if (account.firstChargeAt && account.trialEndAt) {
    const price = account.plan.price;
    banners.push({
      id: 'trial',
      kind: 'info',
      text: `Your free trial ends on ${formatDate(account.trialEndAt)}. Your card is saved: its first charge${
        price === null ? '' : `, ${formatCents(price)} for ${account.plan.label} (${account.plan.duration}),`
      } is on ${formatDate(account.firstChargeAt)}.${trialPlan}`,
    });
  }
  if (account.state === 'trial_expired') {
    banners.push({
      id: 'trial',
      kind: 'error',
      text: `${trialEndedMessage(account, now)}. ${OFFLINE_UNTIL_PLAN}`,
      link: { to: '/account', label: 'Choose a plan' },
    });
  }
  // For a month after the trial (the Account screen says it for as long as it is true).
  const trialEnd = account.trialEndAt ? Date.parse(account.trialEndAt) : Number.NaN;
  if (lostSinceTrial(account) && !(now.getTime() > trialEnd + SWITCHED_OFF_BANNER_DAYS * DAY_MS)) {
    banners.push({
      id: 'switched-off',
      kind: 'info',
      text: switchedOffText(account),
      link: { to: '/account', label: 'Compare plans' },
    });
  }
  if (account.state === 'canceled') {
    const ended = account.canceledAt ?? account.cancelAt;
    banners.push({
      id: 'canceled',
      kind: 'error',
      text: `Your subscription ended${ended ? ` on ${formatDate(ended)}` : ''}. ${OFFLINE_UNTIL_PLAN}`,
      link: { to: '/account', label: 'Choose a plan' },
    });
  }
  return banners;
}
