/**
 * The team avatar a widget may show instead of operators' Slack pictures (settings spec sections 4, 5, 8).
 * Its bytes are kept as a WidgetFile and served publicly at /widget/team-avatar/{fileId}, so visitors' browsers
 * on any site can load it. Only PNG, JPEG, GIF and WebP images (checked by their first bytes, not by the name or
 * the type the browser claims) up to TEAM_AVATAR_MAX_BYTES are taken.
 */

import { ValidationError } from '../errors';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { AVATAR_REMOVAL_REFUSED, TEAM_AVATAR_MAX_BYTES, usesTeamAvatar } from '../shared/settings';
import { type SettingsDeps, updateWidgetSettings } from './updateWidgetSettings';

/** The image type of `bytes` from its signature, or null when it is none of the accepted ones. */
export function imageTypeOf(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

const TEAM_AVATAR_PATH = /\/widget\/team-avatar\/([0-9a-f]{24})$/;

function storedFileId(url: string): string | null {
  return TEAM_AVATAR_PATH.exec(url)?.[1] ?? null;
}

/** Stores `bytes` as the widget's team avatar (replacing the previous one); answers the updated widget. */
export async function setTeamAvatar(
  deps: SettingsDeps & { publicUrl: string },
  ce: ChatEndpointDocument,
  file: { name: string; bytes: Uint8Array },
): Promise<ChatEndpointDocument> {
  if (file.bytes.length === 0) throw new ValidationError('Choose an image to upload.');
  if (file.bytes.length > TEAM_AVATAR_MAX_BYTES)
    throw new ValidationError(`The team avatar must be at most ${TEAM_AVATAR_MAX_BYTES / 1024 / 1024} MB.`);
  const mimetype = imageTypeOf(file.bytes);
  if (!mimetype) throw new ValidationError('The team avatar must be a PNG, JPEG, GIF or WebP image.');
  const previous = storedFileId(ce.teamAvatarUrl);
  const stored = await deps.models.WidgetFile.create({
    ceId: ce._id,
    source: 'team-avatar',
    name: file.name.slice(0, 200) || 'avatar',
    size: file.bytes.length,
    mimetype,
    data: Buffer.from(file.bytes),
  });
  const updated = await updateWidgetSettings(deps, ce, { teamAvatarUrl: `${deps.publicUrl}/widget/team-avatar/${stored.id}` });
  if (previous) await deps.models.WidgetFile.deleteOne({ _id: previous, ceId: ce._id, source: 'team-avatar' });
  return updated;
}

/** Removes the team avatar; refused while an avatar setting shows it. */
export async function removeTeamAvatar(deps: SettingsDeps, ce: ChatEndpointDocument): Promise<ChatEndpointDocument> {
  if (usesTeamAvatar(ce)) throw new ValidationError(AVATAR_REMOVAL_REFUSED, 'team_avatar_in_use');
  const previous = storedFileId(ce.teamAvatarUrl);
  const updated = await updateWidgetSettings(deps, ce, { teamAvatarUrl: '' });
  if (previous) await deps.models.WidgetFile.deleteOne({ _id: previous, ceId: ce._id, source: 'team-avatar' });
  return updated;
}
