/**
 * Who an operator message is shown as in the widget: the operator's Slack name and avatar, or the widget's
 * agent label and team avatar, as the widget's avatar settings say. Slack names are cached per relay.
 */
import type { ChatEndpointDocument } from '../models/ChatEndpoint';

export type Author = { name: string; avatarUrl: string };
/** `known` false: Slack did not answer, the name is a stand-in. */
export type SlackUser = { slackName: string; image: string; known: boolean };

const AUTHOR_TTL_MS = 10 * 60_000;

/**
 * Operators' Slack names and avatars, per relay. Keyed by installation (team, user and bot token), so two
 * Parley servers in one process, or a reinstalled app, never share entries. Only real answers are kept: a
 * failed users.info is asked again on the next reply.
 */
export class SlackAuthors {
  private readonly entries = new Map<string, { user: SlackUser; until: number }>();

  get(key: string): SlackUser | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.until > Date.now()) return entry.user;
    this.entries.delete(key);
    return undefined;
  }

  remember(key: string, user: SlackUser): void {
    if (user.known) this.entries.set(key, { user, until: Date.now() + AUTHOR_TTL_MS });
  }
}

/** The operator's name and avatar as the widget's avatar settings say (spec section 4, avatar setting). */
export function operatorAuthor(
  ce: Pick<
    ChatEndpointDocument,
    'forwardSlackUserName' | 'showAvatarPreChat' | 'showTeamAvatarPreChat' | 'teamAvatarOn' | 'teamAvatarUrl' | 'agentLabel'
  >,
  user: { slackName: string; image: string },
): Author {
  const name = ce.forwardSlackUserName ? user.slackName : ce.agentLabel || 'Support';
  let avatarUrl = '';
  if (ce.teamAvatarOn) avatarUrl = ce.teamAvatarUrl;
  else if (ce.forwardSlackUserName && (ce.showAvatarPreChat || ce.showTeamAvatarPreChat)) avatarUrl = user.image;
  return { name, avatarUrl };
}
