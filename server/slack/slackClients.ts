/**
 * Web API clients for Parley's background Slack work (the slack.* outbox jobs, presence, operators' names). Unlike the clients used while a person waits, these
 * never sleep through a rate limit or retry on their own: the outbox decides when to try again.
 */
import { LogLevel, WebClient } from '@slack/web-api';
import type { Models } from '../models';
import type { PubSub } from '../relay/pubsub';

export type TeamClient = { client: WebClient; botUserId: string; botId: string; token: string };

export class SlackClients {
  private readonly cache = new Map<string, { value: TeamClient; until: number }>();

  /**
   * `fetch`: how the clients reach Slack (main.ts: keep-alive connections, each call counted in the metrics); the
   * Bolt app and OAuth use it too.
   */
  constructor(
    private readonly models: Models,
    private readonly apiUrl: string,
    readonly fetch: typeof globalThis.fetch = globalThis.fetch,
  ) {}

  /** The bot client of a team's active installation, or null when Parley is not (or no longer) installed. */
  async forTeam(teamId: string): Promise<TeamClient | null> {
    const cached = this.cache.get(teamId);
    if (cached && cached.until > Date.now()) return cached.value;
    const inst = teamId ? await this.models.Installation.findOne({ teamId, revokedAt: null }) : null;
    if (!inst) {
      this.cache.delete(teamId);
      return null;
    }
    const client = new WebClient(inst.botToken, {
      slackApiUrl: this.apiUrl,
      logLevel: LogLevel.ERROR,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      timeout: 10_000,
      fetch: this.fetch,
    });
    const value = { client, botUserId: inst.botUserId, botId: inst.botId, token: inst.botToken };
    this.cache.set(teamId, { value, until: Date.now() + 60_000 });
    return value;
  }

  forget(teamId: string): void {
    this.cache.delete(teamId);
  }
}

/** This process changed a team's Slack installation: the cached clients with its old tokens go, here and elsewhere. */
export function installationChanged(deps: { slack: SlackClients; pubsub: Pick<PubSub, 'signal'> }, teamId: string): void {
  deps.slack.forget(teamId);
  deps.pubsub.signal({ kind: 'team', teamId });
}
