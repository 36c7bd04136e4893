/** A file the visitor attaches (or the screenshot they allowed), uploaded into the conversation over HTTP. */
import { MAX_UPLOAD_BYTES } from '../../../server/shared/widget-constants';
import { h } from './dom';
import type { Language } from './text';

export type UploadDeps = {
  base: string;
  widgetId: string;
  lang: Language;
  /** The visitor token; nothing is uploaded without one. */
  token(): string | undefined;
  /** Adds the "uploading" line to the chat's log (removed when the upload is over). */
  append(line: HTMLElement): void;
  /** Says what went wrong above the chat. */
  showBanner(text: string): void;
};

export function createUpload(deps: UploadDeps): (file: File, fields?: Record<string, string>) => Promise<void> {
  const { base, widgetId, lang } = deps;
  const t = lang.texts;
  return async (file, fields = {}) => {
    const token = deps.token();
    if (!token) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      deps.showBanner(lang.fill(t.fileTooBig, { size: lang.size(MAX_UPLOAD_BYTES) }));
      return;
    }
    const note = h('li', { class: 'system' }, lang.fill(t.uploading, { name: file.name }));
    deps.append(note);
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', file);
    try {
      const res = await fetch(`${base}/widget/api/${encodeURIComponent(widgetId)}/files`, {
        method: 'POST',
        headers: { 'X-Visitor-Token': token },
        body: form,
        credentials: 'omit',
      });
      if (!res.ok) {
        const answer = (await res.json().catch(() => ({}))) as { Message?: string; Error?: string };
        deps.showBanner(lang.error(answer.Error ?? '', answer.Message));
      }
    } catch {
      deps.showBanner(t.uploadFailed);
    } finally {
      note.remove();
    }
  };
}
