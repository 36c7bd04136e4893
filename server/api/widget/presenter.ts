/** What the widget API answers: the widget's public settings (conversations/publicSettings.ts) and uploaded files. */
import type { WidgetFile } from '../../models/WidgetFile';

export { PUBLIC_SETTINGS_FIELDS, publicSettings, publicTriggers } from '../../conversations/publicSettings';
export type { PublicWidgetSettings } from '../../shared/widget-config';

/** What the widget gets back for a file its visitor uploaded: the link it shows in the chat. */
export function presentUploadedFile(file: Pick<WidgetFile, 'name' | 'size' | 'mimetype'> & { _id: unknown }, publicUrl: string) {
  const id = String(file._id);
  return { id, name: file.name, size: file.size, url: `${publicUrl}/widget/files/${id}`, mimetype: file.mimetype };
}

/** The "Chat by Parley" footer link: Parley's public page, with the widget as referral. */
export function poweredByUrl(publicUrl: string, widgetUuid: string): string {
  return `${publicUrl}/pricing?ref=${encodeURIComponent(widgetUuid)}&utm_source=widget&utm_medium=referral`;
}
