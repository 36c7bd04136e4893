import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import { CHAT_ENDPOINT_DEFAULTS } from '../../models/ChatEndpoint';
import type { ChatEndpointSettings, ChatEndpointView, ChatEndpointWithStats, ChatStats } from '../../shared/types';

const SETTINGS_KEYS = Object.keys(CHAT_ENDPOINT_DEFAULTS) as (keyof typeof CHAT_ENDPOINT_DEFAULTS)[];

export function presentChatEndpoint(ce: ChatEndpointDocument): ChatEndpointView {
  const Id = ce._id.toHexString();
  const settings = {} as Record<string, unknown>;
  for (const key of SETTINGS_KEYS) settings[key] = ce.get(key) ?? CHAT_ENDPOINT_DEFAULTS[key];
  return {
    ...(settings as Omit<ChatEndpointSettings, 'operatingHours' | 'textOverrides' | 'tags'>),
    textOverrides: ce.textOverrides ?? {},
    tags: [...(ce.tags ?? [])],
    operatingHours: ce.operatingHours.map((h) => ({ weekday: h.weekday, ceId: Id, start: h.start, end: h.end })),
    Id,
    Uuid: ce.Uuid,
    RoomId: ce.RoomId,
    RoomName: ce.RoomName,
    Step: ce.Step,
    slackBaseUrl: ce.slackBaseUrl,
    slackTeamId: ce.slackTeamId,
    slackMainUser: ce.slackMainUser,
    slackTeamName: ce.slackTeamName,
    slackMainUserName: ce.slackMainUserName,
    // What presence last decided (Presence.recheck stores it; the dashboard's calls recheck first): the same
    // answer the widget's config and socket give visitors, operating hours and billing included.
    online: ce.Step === 3 && !ce.off && !ce.installationRevoked && ce.status === 'online',
    installationRevoked: ce.installationRevoked,
    OauthV1: ce.OauthV1,
    BotScope: ce.BotScope,
    Scope: ce.Scope,
    requestChatWriteUserScope: ce.requestChatWriteUserScope,
    topic: ce.topic,
    off: ce.off,
    // Unconfigured widgets, and those of an uninstalled team, are offline whatever presence says.
    status: ce.Step < 3 || ce.installationRevoked ? 'offline' : ce.status,
    AvailableRooms: ce.AvailableRooms.map((r) => ({ Id: r.Id, Name: r.Name, Topic: r.Topic })),
    identitySecretCreatedAt: ce.identitySecretCreatedAt ? ce.identitySecretCreatedAt.toISOString() : null,
  };
}

export function presentChatEndpointWithStats(ce: ChatEndpointDocument, chatStats: ChatStats): ChatEndpointWithStats {
  return { ...presentChatEndpoint(ce), chatStats };
}
