/** Typed calls of the Account screen's team sections: users, API keys, GDPR export and erasure (spec section 7). */
import type { CurrentUser } from '../../../server/shared';
import type { ApiKeyField, DashboardUserRow, GdprErasureView, GdprExportView, InvitationView } from '../../../server/shared/teamMessages';
import { apiRequest } from './client';

export async function listTeamUsers(): Promise<DashboardUserRow[]> {
  const rows = await apiRequest<DashboardUserRow[]>('GET', '/dashboard-admin/users');
  return Array.isArray(rows) ? rows : [];
}

export function inviteTeamUser(email: string): Promise<DashboardUserRow> {
  return apiRequest('POST', '/dashboard-admin/users', { body: { email } });
}

export function toggleTeamAdmin(id: string): Promise<DashboardUserRow> {
  return apiRequest('PUT', '/dashboard-admin/users', { body: { id } });
}

export function deleteTeamUser(id: string): Promise<void> {
  return apiRequest('DELETE', '/dashboard-admin/users', { body: { Id: id } });
}

/** Generates (or regenerates, revoking the old one) a key; the answer carries it in full, once. */
export function generateApiKey(key: ApiKeyField): Promise<CurrentUser> {
  return apiRequest('PUT', '/accounts/generate-api-key', { body: { key } });
}

export function latestGdprExport(): Promise<GdprExportView | null> {
  return apiRequest('GET', '/accounts/gdpr-export');
}

export function requestGdprExport(): Promise<GdprExportView> {
  return apiRequest('POST', '/accounts/gdpr-export');
}

export function eraseVisitor(query: string): Promise<GdprErasureView> {
  return apiRequest('POST', '/accounts/gdpr-erasure', { body: { query } });
}

export async function listErasures(): Promise<GdprErasureView[]> {
  const rows = await apiRequest<GdprErasureView[]>('GET', '/accounts/gdpr-erasures');
  return Array.isArray(rows) ? rows : [];
}

export function getInvitation(token: string): Promise<InvitationView> {
  return apiRequest('GET', `/p/invitations/${encodeURIComponent(token)}`, { auth: false });
}

/** Sets the invitee's password and records the terms; answers a session token. */
export async function acceptInvitation(token: string, password: string): Promise<string> {
  const answer = await apiRequest<{ token: string }>('POST', '/p/invitations/accept', {
    auth: false,
    body: { token, password, acceptTerms: true },
  });
  return answer.token;
}
