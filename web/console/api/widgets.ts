/**
 * Typed calls of the widget setup, Slack permissions, dashboard and upgrade screens (spec section 7 and the
 * issue 4 API contract). Failures arrive as ApiError with the server's Message (see client.ts).
 */
import type { ChatEndpointView, CurrentUser, PermissionsView, SlackRoom } from '../../../server/shared';
import { RATING_DISMISS } from '../../../server/shared/constants';
import { apiRequest } from './client';

export type { PermissionsView, SlackScopeRef } from '../../../server/shared';

export type SlackAuthorizePurpose = 'install' | 'swap_user' | 'upgrade';

const ce = (id: string) => `/chat_endpoints/${encodeURIComponent(id)}`;

/** A new widget at step 1. 402 (Error plan_limit) when the plan has no room for another channel. */
export async function createWidget(): Promise<string> {
  return (await apiRequest<{ Id: string }>('POST', '/chat_endpoints/new')).Id;
}

/** A new widget at step 2 in the Slack team of `existingId` (a configured widget of the caller). */
export async function createWidgetInTeam(existingId: string): Promise<string> {
  return (await apiRequest<{ Id: string }>('POST', `/chat_endpoints/new/${encodeURIComponent(existingId)}`)).Id;
}

/** Slack's authorisation URL for a widget in another workspace: the widget is made once Slack says yes. */
export async function slackAuthorizeNewTeamUrl(): Promise<string> {
  const answer = await apiRequest<{ url?: unknown }>('GET', '/chat_endpoints/new/slack_authorize');
  if (typeof answer?.url !== 'string' || answer.url === '') throw new Error('Slack could not be reached. Please try again.');
  return answer.url;
}

export function deleteWidget(id: string): Promise<void> {
  return apiRequest('DELETE', ce(id));
}

/** Public channels of the widget's Slack team, random and general left out. */
export async function listRooms(id: string): Promise<SlackRoom[]> {
  const rooms = await apiRequest<SlackRoom[]>('GET', `${ce(id)}/rooms`);
  return Array.isArray(rooms) ? rooms : [];
}

/** Creates the Slack channel; the widget is connected to it by connectChannel afterwards. */
export function createChannel(id: string, channelName: string): Promise<{ Id: string; Name: string }> {
  return apiRequest('POST', `${ce(id)}/channels`, { body: { channelName } });
}

/** Joins the channel and finishes setup (Step 3); answers the current user with the updated widgets. */
export function connectChannel(widget: ChatEndpointView, room: { Id: string; Name: string }): Promise<CurrentUser> {
  return apiRequest('PUT', `${ce(widget.Id)}/connect_ce`, { body: { ...widget, RoomId: room.Id, RoomName: room.Name } });
}

/** Back to step 2: the widget forgets its channel. */
export function changeChannel(id: string): Promise<ChatEndpointView> {
  return apiRequest('PUT', `${ce(id)}/change-channel`);
}

export function renameChannel(id: string, roomName: string): Promise<ChatEndpointView> {
  return apiRequest('PUT', `${ce(id)}/rename-channel`, { body: { roomName } });
}

/** The Slack (or sandbox) authorisation URL for this widget; the caller navigates to it. */
export async function slackAuthorizeUrl(
  id: string,
  purpose: SlackAuthorizePurpose,
  scopes: { bot?: string[]; user?: string[] } = {},
): Promise<string> {
  const query = new URLSearchParams({ purpose });
  if (scopes.bot && scopes.bot.length > 0) query.set('bot', scopes.bot.join(','));
  if (scopes.user && scopes.user.length > 0) query.set('user', scopes.user.join(','));
  const answer = await apiRequest<{ url?: unknown }>('GET', `${ce(id)}/slack_authorize?${query.toString()}`);
  if (typeof answer?.url !== 'string' || answer.url === '') throw new Error('Slack could not be reached. Please try again.');
  return answer.url;
}

export function getPermissions(id: string): Promise<PermissionsView> {
  return apiRequest('GET', `${ce(id)}/permissions`);
}

/** Moves the account to another plan; answers the current user. */
export function upgradePlan(accountId: string, planStripeId: string): Promise<CurrentUser> {
  return apiRequest('POST', `/accounts/${encodeURIComponent(accountId)}/upgrade/${encodeURIComponent(planStripeId)}`);
}

/** Records a satisfaction rating from 0 to 10, or RATING_DISMISS. */
export function rate(value: number): Promise<void> {
  return apiRequest('GET', `/users/rate/${value === RATING_DISMISS ? RATING_DISMISS : Math.round(value)}`);
}
