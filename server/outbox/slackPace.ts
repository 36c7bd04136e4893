/**
 * Slack's pace for posts into one channel (about one a second, short bursts) and its Retry-After, shared by every
 * process of a deployment through Redis (REDIS_URL): one budget per channel, whichever process posts. The outbox
 * keeps its own per-process bucket too (it decides what to claim without a round trip); this is asked once more,
 * right before a claimed Slack job runs.
 *
 * The budget is a GCRA (generic cell rate algorithm) in one Lua script: a key per channel holds the theoretical
 * arrival time of the next post; a 429's Retry-After is a second key that expires when Slack lets the channel go.
 * It keeps one post of Slack's burst in hand: a post counted here reaches Slack a little later, by a delay that
 * differs per process and per moment (a busy event loop), so two posts counted a second apart may arrive together.
 * Redis away: nothing is waited for here (the per-process bucket still paces), and the first answer after it is
 * back counts again.
 */
import type { Logger } from '../logger';
import type { Redis } from '../redis';

export type SlackPace = {
  /** Counts a post into `channel` and answers 0, or answers how many ms to wait first (nothing counted then). */
  take(channel: string, perSecond: number, burst: number): Promise<number>;
  /** Slack answered 429 for `channel`: no process posts there for `ms`. */
  block(channel: string, ms: number): void;
};

const PREFIX = 'parley:slack-pace:';

// KEYS[1]: the channel's next arrival time; KEYS[2]: its Retry-After. ARGV: now (ms), interval (ms), burst.
const TAKE = `
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then return blocked end
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat + interval - now - burst * interval
if wait > 0 then return math.ceil(wait) end
redis.call('SET', KEYS[1], tostring(tat + interval), 'PX', math.ceil(burst * interval + interval))
return 0
`;

export function redisSlackPace(redis: Redis, logger: Logger): SlackPace {
  return {
    async take(channel, perSecond, burst) {
      if (redis.status !== 'ready') return 0;
      try {
        const interval = 1000 / perSecond;
        const inHand = Math.max(1, burst - 1);
        const wait = await redis.eval(TAKE, 2, `${PREFIX}${channel}`, `${PREFIX}${channel}:blocked`, Date.now(), interval, inHand);
        return Number(wait) || 0;
      } catch (error) {
        logger.debug({ err: error }, 'slack pace: Redis did not answer; pacing in this process only');
        return 0;
      }
    },
    block(channel, ms) {
      if (redis.status !== 'ready') return;
      redis.set(`${PREFIX}${channel}:blocked`, '1', 'PX', Math.max(1, Math.round(ms))).catch(() => undefined);
    },
  };
}
