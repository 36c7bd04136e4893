/** Where Parley serves a visitor's generated avatar (server/http/visitorAvatar.ts), for Slack's icon_url. */
export const VISITOR_AVATAR_PATH = '/avatars/visitor';

export function visitorAvatarUrl(publicUrl: string, visitorId: string): string {
  return `${publicUrl}${VISITOR_AVATAR_PATH}/${encodeURIComponent(visitorId)}.png`;
}
