// Slack's rate limits, when the sandbox is asked to enforce them (`rateLimits: 'slack'`): per workspace and
// method, a budget per minute by tier (1: 1+, 2: 20+, 3: 50+, 4: 100+), and chat.postMessage's special limit of
// about one message per second per channel with short bursts. Budgets refill continuously (token buckets).

const TIER_PER_MINUTE = { 1: 1, 2: 20, 3: 50, 4: 100 } as const;

const methodTier: Record<string, keyof typeof TIER_PER_MINUTE> = {
  'conversations.list': 2,
  'conversations.create': 2,
  'conversations.rename': 2,
  'conversations.archive': 2,
  'conversations.unarchive': 2,
  'conversations.setTopic': 2,
  'conversations.join': 3,
  'conversations.invite': 3,
  'conversations.leave': 3,
  'conversations.info': 3,
  'conversations.history': 3,
  'conversations.replies': 3,
  'conversations.members': 4,
  'users.conversations': 3,
  'users.list': 2,
  'users.info': 4,
  'users.lookupByEmail': 3,
  'users.getPresence': 3,
  'team.info': 3,
  'chat.update': 3,
  'chat.delete': 3,
  'chat.postEphemeral': 4,
  'chat.getPermalink': 4,
  'reactions.add': 3,
  'views.open': 4,
  'views.push': 4,
  'views.update': 4,
  'views.publish': 4,
  'files.getUploadURLExternal': 4,
  'files.completeUploadExternal': 4,
  'files.info': 4,
};

/** chat.postMessage: one per second per channel, with a burst of this many. */
const POST_BURST = 3;

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** Off: every call goes ahead (a test that measures something else may lift the limits). */
  constructor(public enabled: boolean) {}

  /**
   * Takes one call from the budget of (team, method[, channel]); answers the seconds to wait when the budget is
   * spent, or null when the call may go ahead.
   */
  take(teamId: string, method: string, channel: string | undefined, now = Date.now()): number | null {
    let capacity: number;
    let perMs: number;
    let key: string;
    if (method === 'chat.postMessage') {
      if (!channel) return null;
      capacity = POST_BURST;
      perMs = 1 / 1000;
      key = `${teamId}:${method}:${channel}`;
    } else {
      const tier = methodTier[method];
      if (!tier) return null;
      capacity = TIER_PER_MINUTE[tier];
      perMs = capacity / 60_000;
      key = `${teamId}:${method}`;
    }
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + (now - b.at) * perMs);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000));
  }
}
