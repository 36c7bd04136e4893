/**
 * Who an operator message is shown as in the widget: the operator's Slack name and avatar, or the widget's agent
 * label and team avatar, as the widget's avatar settings say. (The Slack names themselves: server/slack/authors.ts.)
 */
import type { ChatEndpointDocument } from '../models/ChatEndpoint';

export type Author = { name: string; avatarUrl: string };

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
