/** Typed calls of the per-widget settings (spec section 7): save settings, on/off toggle, team avatar upload. */
import type { ChatEndpointSettings, ChatEndpointView } from '../../../server/shared';
import { API_BASE, ApiError, apiRequest, endSession, UNKNOWN_ERROR } from './client';
import { readToken } from './token';

const ce = (id: string) => `/chat_endpoints/${encodeURIComponent(id)}`;

/** PUT /v1/chat_endpoints/{id}/update_config with the fields to change; answers the saved widget. */
export function updateConfig(id: string, changes: Partial<ChatEndpointSettings>): Promise<ChatEndpointView> {
  return apiRequest('PUT', `${ce(id)}/update_config`, { body: changes });
}

/** PUT /v1/chat_endpoints/{id}/toggle/{on|off}; answers the widget. */
export function toggleWidget(id: string, on: boolean): Promise<ChatEndpointView> {
  return apiRequest('PUT', `${ce(id)}/toggle/${on ? 'on' : 'off'}`);
}

/**
 * POST /v1/chat_endpoints/{id}/team-avatar as multipart (file and size), reporting upload progress in percent.
 * XMLHttpRequest because fetch cannot report upload progress. Answers the stored avatar's URL.
 */
export function uploadTeamAvatar(id: string, file: File, onProgress: (percent: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${ce(id)}/team-avatar`);
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError('Parley could not be reached. Check your connection and try again.', 0));
    xhr.onload = () => {
      let body: { teamAvatarUrl?: unknown; Message?: unknown } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // Not JSON: handled below as an unknown error.
      }
      if (xhr.status === 403) endSession();
      if (xhr.status >= 200 && xhr.status < 300 && typeof body.teamAvatarUrl === 'string') resolve(body.teamAvatarUrl);
      else reject(new ApiError(typeof body.Message === 'string' ? body.Message : UNKNOWN_ERROR, xhr.status));
    };
    const form = new FormData();
    form.append('file', file);
    form.append('size', String(file.size));
    xhr.send(form);
  });
}

/** DELETE /v1/chat_endpoints/{id}/team-avatar; refused (400) while an avatar setting uses the team avatar. */
export function removeTeamAvatar(id: string): Promise<ChatEndpointView> {
  return apiRequest('DELETE', `${ce(id)}/team-avatar`);
}

/** PUT /v1/chat_endpoints/{id}/identity_secret (admins): a new identity secret, answered this once. */
export function regenerateIdentitySecret(id: string): Promise<{ identitySecret: string }> {
  return apiRequest('PUT', `${ce(id)}/identity_secret`);
}
