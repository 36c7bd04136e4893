/**
 * Operators' Slack names and avatars, as users.info last told them, cached per Parley (the widget shows them,
 * server/conversations/authors.ts decides which).
 */
import type { Logger } from '../logger';
import { shortReads } from '../shortReads';
import type { SlackClients } from './slackClients';

/** `known` false: Slack did not answer, the name is a stand-in. */
export type SlackUser = { slackName: string; image: string; known: boolean };

const AUTHOR_TTL_MS = 10 * 60_000;
const FALLBACK_NAME = 'Operator';

/**
 * Keyed by installation (team, user and bot token), so two Parley servers in one process, or a reinstalled app,
 * never share entries. Only real answers are kept (server/shortReads.ts): a failed users.info is asked again on the
 * next reply. Slack's user_not_found is an answer (the user is not in that workspace any more, as for an operator
 * who left and whom Reports → Team still lists): it is kept as such, a stand-in, so each report does not ask again.
 */
const answers = shortReads<SlackAuthors, SlackUser>(AUTHOR_TTL_MS);

export class SlackAuthors {
  constructor(
    private readonly slack: SlackClients,
    private readonly logger: Logger,
  ) {}

  /** The operator's Slack name and avatar; a stand-in (`known` false) when Slack does not answer. */
  async lookup(teamId: string, userId: string): Promise<SlackUser> {
    const team = await this.slack.forTeam(teamId);
    if (!team) return { slackName: FALLBACK_NAME, image: '', known: false };
    try {
      return await answers.get(this, `${teamId}:${userId}:${team.token}`, async () => {
        const res = await team.client.users.info({ user: userId }).catch((error: unknown) => {
          if ((error as { data?: { error?: unknown } }).data?.error !== 'user_not_found') throw error;
          this.logger.warn({ slackUser: userId }, 'relay: users.info does not know this user');
          return null;
        });
        if (!res) return { slackName: FALLBACK_NAME, image: '', known: false };
        const profile = res.user?.profile;
        return {
          slackName: profile?.display_name || res.user?.real_name || profile?.real_name || res.user?.name || FALLBACK_NAME,
          image: profile?.image_72 || profile?.image_48 || '',
          known: true,
        };
      });
    } catch (error) {
      this.logger.warn({ slackUser: userId, err: error }, 'relay: users.info failed');
      return { slackName: FALLBACK_NAME, image: '', known: false };
    }
  }
}
