/** Reports: constants (spec section 9), answer shapes, date range presets and download names, for server and console. */

/** History table page size. */
export const HISTORY_PAGE_SIZE = 15;
/** The console's download buttons fetch this many chats (page 0); the export itself has no cap. */
export const DOWNLOAD_CHAT_LIMIT = 1000;
/** Default range preset. */
export const DEFAULT_RANGE_PRESET = 'last30';
/** The availability popover opens above the bar when the bar is closer than this to the bottom of the screen. */
export const POPOVER_FLIP_PX = 260;
/** Page URLs in history details are cut to this many characters after the protocol is removed. */
export const PAGE_URL_MAX = 32;
/** Hour labels of the availability scale, every this many hours. */
export const HOUR_LABEL_STEP = 2;
/** Longest range a report answers, in days (about ten years). */
export const MAX_RANGE_DAYS = 3700;
/** Largest history page. */
export const MAX_PER_PAGE = 1000;

export const RANGE_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'lastmonth', 'lastweek', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const RANGE_PRESET_LABELS: Record<RangePreset, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  last7: 'Last 7 days',
  last30: 'Last 30 days',
  lastmonth: 'Last month',
  lastweek: 'Last week',
  custom: 'Custom range',
};

/** What caused a widget to go online or offline. */
export const PRESENCE_CAUSES = [
  'slack-activity',
  'manual-mode',
  'switched-off',
  'switched-on',
  'operating-hours',
  'billing',
  'setup',
] as const;
export type PresenceCause = (typeof PRESENCE_CAUSES)[number];
export const PRESENCE_CAUSE_LABELS: Record<PresenceCause, string> = {
  'slack-activity': 'Slack activity',
  'manual-mode': 'Manual mode',
  'switched-off': 'Turned off (/parley off or the console)',
  'switched-on': 'Turned on (/parley on or the console)',
  'operating-hours': 'Operating hours',
  billing: 'Billing',
  setup: 'Setup or Slack connection',
};

/** Report dates: local date and time in the report's time zone. */
export const REPORT_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** One row of the overview: one agent, the missed chats (agentName ''), or the whole room. */
export type OverviewFigures = {
  totalChats: number;
  avgChatsPerDay: number;
  chatsFromTrigger: number;
  upRatingPercent: number;
  upRatingCount: number;
  lateReply: number;
  avgTimeToFirstReply: number;
  avgChatDuration: number;
  avgMsgsPerChat: number;
  totalOfflineMsgs: number;
};
export type AgentStats = OverviewFigures & { agentName: string };
export type OverviewReport = {
  totalStats: OverviewFigures;
  stats: AgentStats[];
  days: number;
  chatsPerDay: { day: string; chats: number }[];
};

export type ChatVisitor = {
  /** How the console names the visitor: their name, else their e-mail address, else "Visitor N" (N: the chat's number). */
  label: string;
  name: string;
  email: string;
  avatarUrl: string;
  location: string;
  createdAt: string;
  currentPage: string;
  identUserId: string;
  identTraits: string;
  /** 'verified': the site proved the identity (valid userHash); 'unverified': claimed without proof; '' nothing to prove. */
  identity: 'verified' | 'unverified' | '';
};
/** A chat record of the history (spec section 3). */
export type ChatRecord = {
  id: string;
  /** The chat's number in its widget, as its Slack thread header shows it (`/parley end N`). */
  number: number;
  startedAt: string;
  endedAt: string;
  title: string;
  /** The first line of the visitor's opening message ('' for chats recorded before it was kept, and erased ones). */
  firstLine: string;
  channelUrl: string;
  channelName: string;
  chatRating: 'up' | 'down' | '';
  chatFeedback: string;
  agentName: string;
  agentAvatarUrl: string;
  /** When the first operator reply came; '' when no operator answered. */
  firstResponseAt: string;
  /** The shared inbox's state (HISTORY_STATE_LABELS), its assignee (a Slack user id, '' when nobody) and its tags. */
  state: HistoryState;
  assigneeId: string;
  tags: string[];
  visitor: ChatVisitor;
};

/** The shared inbox's states (models/Conversation INBOX_STATES) as the History names them. */
export const HISTORY_STATE_LABELS = {
  open: 'Open',
  waiting: 'Waiting for the visitor',
  snoozed: 'Snoozed',
  ended: 'Ended',
} as const;
export type HistoryState = keyof typeof HISTORY_STATE_LABELS;

/**
 * The History's filters, for its list and its downloads: chats carrying `tag`, in `state`, assigned to `assignee` (a
 * Slack user id, or 'none' for the unassigned ones). An absent field filters nothing.
 */
export type HistoryFilters = { tag?: string; state?: HistoryState; assignee?: string };
export type ChatsPage = { chats: ChatRecord[]; totalChats: number };
/** A file of a transcript's message; `url` (an API path, with the console's session) is '' when only Slack holds it. */
export type TranscriptFile = { id: string; name: string; size: number; mimetype: string; url: string };
export type TranscriptEntry = {
  id: string;
  from: 'visitor' | 'operator' | 'system';
  author: string;
  text: string;
  /** The message's formatting as the widget shows it (sanitised HTML: bold, links…); '' for plain text. */
  html: string;
  files: TranscriptFile[];
  at: string;
  deleted: boolean;
  edited: boolean;
};
export type Transcript = { chat: ChatRecord; messages: TranscriptEntry[] };

export type PresenceState = 'Online' | 'Offline';
export type AvailabilityEntry = { state: PresenceState; prevState: PresenceState; start: string; end: string; cause: PresenceCause | '' };
export type AvailabilityDay = {
  label: string;
  date: string;
  start: string;
  end: string;
  onlinePercent: number;
  entries: AvailabilityEntry[];
};
/** `stats`: the days of the range from the widget's creation (`createdAt`) on; nothing is known before it. */
export type AvailabilityReport = { stats: AvailabilityDay[]; createdAt: string };

/** How an operator's suggestion sent from Slack was made (AnswerEvent `suggestion`; an article when it has none). */
export const SUGGESTION_KIND_LABELS: Record<string, string> = {
  article: 'Articles',
  savedReply: 'Saved replies',
  pastAnswer: 'Answers from past conversations',
};

/** The help center's figures over a range (docs/reports.md, Answers). */
export type AnswersFigures = {
  searches: number;
  /** Searches that found no article. */
  searchesWithoutAnswer: number;
  articleViews: number;
  /** "Did this answer your question?" answered Yes / No. */
  helpfulYes: number;
  helpfulNo: number;
  /** Conversations resolved by an article. */
  resolved: number;
  suggestionsSent: number;
};
/** A question that found nothing, grouped case-insensitively; `query` is its most common spelling. */
export type UnansweredQuestion = { query: string; language: string; count: number; lastAskedAt: string };
/** One article's figures; `title` '' for an article deleted since. */
export type ArticleAnswers = {
  id: string;
  title: string;
  language: string;
  views: number;
  helpfulYes: number;
  helpfulNo: number;
  resolved: number;
  sent: number;
};
export type AnswersReport = {
  totals: AnswersFigures;
  /** Suggestions sent from Slack by kind (`kind` a key of SUGGESTION_KIND_LABELS, or what was recorded), most first. */
  suggestions: { kind: string; sent: number }[];
  /** Most asked first; at most ANSWERS_QUESTIONS_SHOWN (the download has them all). */
  unanswered: UnansweredQuestion[];
  /** How many different questions found nothing. */
  unansweredTotal: number;
  /** Articles with any figure in the range, most viewed first. */
  articles: ArticleAnswers[];
};
/** The Answers report lists this many unanswered questions; the download lists every one. */
export const ANSWERS_QUESTIONS_SHOWN = 100;

/** The team's figures over a range, of one operator or of everyone (docs/reports.md, Team). */
export type TeamFigures = {
  /** Conversations assigned to them (each once, however often it was reassigned). */
  assigned: number;
  /** Conversations they answered. */
  answered: number;
  /** Conversations that ended while they had them. */
  ended: number;
  /** First answers, and the median business time a visitor waited for one (seconds; null without answers). */
  firstResponses: number;
  medianFirstResponseSecs: number | null;
  /** Answers after the visitor wrote again, and their median business wait (seconds; null without answers). */
  nextResponses: number;
  medianNextResponseSecs: number | null;
  /** Answers measured against a response target, how many were within it, and that share (null when none was measured). */
  targeted: number;
  withinTarget: number;
  withinTargetPercent: number | null;
  /** Ratings of the conversations they had (their assignee, else the last operator who answered), started in the range. */
  ratedUp: number;
  ratedDown: number;
};
/** One operator: a Slack user, named and pictured as in Slack (`avatarUrl` '' when unknown). */
export type OperatorRow = TeamFigures & { id: string; name: string; avatarUrl: string };
/** How a tag's trend is cut: per day up to a month, per week (from Monday) up to a year, else per month. */
export type TrendStep = 'day' | 'week' | 'month';
/** One step of the trend: its first day in the report's zone (yyyy-mm-dd) and a short label ("Mar 8", "Mar 2026"). */
export type TrendBucket = { start: string; label: string };
/** A tag: the conversations started in the range that carry it, and per bucket of the trend. */
export type TagRow = { tag: string; conversations: number; trend: number[] };
export type TeamReport = {
  /** Most answered first. */
  operators: OperatorRow[];
  /** Everyone together (a conversation reassigned between two operators counts once). */
  team: TeamFigures;
  /** Conversations started in the range, and how many of them carry a tag. */
  conversations: number;
  tagged: number;
  step: TrendStep;
  buckets: TrendBucket[];
  /** Most used first. */
  tags: TagRow[];
};

/** A calendar date as y-m-d numbers; arithmetic on it ignores time zones. */
type Ymd = { y: number; m: number; d: number };
const pad = (n: number) => String(n).padStart(2, '0');
const ymdString = ({ y, m, d }: Ymd) => `${y}-${pad(m)}-${pad(d)}`;
function addDays({ y, m, d }: Ymd, days: number): Ymd {
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** Today's date in a time zone (UTC when the zone is unknown). */
export function todayIn(tz: string, now: Date): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

function parseYmd(date: string): Ymd | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const ymd = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  return ymdString(addDays(ymd, 0)) === date ? ymd : null;
}

/** First and last date (yyyy-mm-dd, inclusive) of a preset, seen from `today` (yyyy-mm-dd). Weeks start on Monday. */
export function presetDates(preset: Exclude<RangePreset, 'custom'>, today: string): { start: string; end: string } {
  const t = parseYmd(today) ?? { y: 1970, m: 1, d: 1 };
  const span = (from: Ymd, to: Ymd) => ({ start: ymdString(from), end: ymdString(to) });
  switch (preset) {
    case 'today':
      return span(t, t);
    case 'yesterday':
      return span(addDays(t, -1), addDays(t, -1));
    case 'last7':
      return span(addDays(t, -6), t);
    case 'last30':
      return span(addDays(t, -29), t);
    case 'lastmonth': {
      const first = { y: t.m === 1 ? t.y - 1 : t.y, m: t.m === 1 ? 12 : t.m - 1, d: 1 };
      return span(first, addDays({ y: t.y, m: t.m, d: 1 }, -1));
    }
    case 'lastweek': {
      const weekday = (new Date(Date.UTC(t.y, t.m - 1, t.d)).getUTCDay() + 6) % 7;
      const monday = addDays(t, -weekday - 7);
      return span(monday, addDays(monday, 6));
    }
  }
}

/**
 * The custom range rules (spec section 5): dates must be yyyy-mm-dd, an invalid one falls back to today, an
 * end before the start becomes the start, and nothing goes beyond today.
 */
export function customDates(start: string, end: string, today: string): { start: string; end: string } {
  const clamp = (v: string) => {
    const valid = parseYmd(v) ? v : today;
    return valid > today ? today : valid;
  };
  const s = clamp(start);
  const e = clamp(end);
  return { start: s, end: e < s ? s : e };
}

/** The query of a report over whole days: 00:00:00 of the first to 23:59:59 of the last, in `tz`. */
export function rangeQuery(dates: { start: string; end: string }, tz: string): { tz: string; startDate: string; endDate: string } {
  return { tz, startDate: `${dates.start}T00:00:00`, endDate: `${dates.end}T23:59:59` };
}

/** The reports a file can be downloaded of: the overview's figures, the chat history, the help center's answers and the team's figures. */
export type DownloadReport = 'overview' | 'history' | 'answers' | 'team';

/**
 * Download file name: an ISO timestamp with the colons replaced, the room and the report, then _parley_output.csv
 * or .json (`2026-03-09T18-00-00.000Z_support_history_parley_output.csv`). The room name keeps letters, digits, - and _.
 */
export function downloadName(now: Date, format: 'csv' | 'json', report: DownloadReport, room: string): string {
  const safeRoom =
    room
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'room';
  return `${now.toISOString().replace(/:/g, '-')}_${safeRoom}_${report}_parley_output.${format}`;
}

/** A page URL as history details show it: without the protocol, cut to PAGE_URL_MAX characters. */
export function shortPageUrl(url: string): string {
  const bare = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  return bare.length > PAGE_URL_MAX ? `${bare.slice(0, PAGE_URL_MAX)}…` : bare;
}
