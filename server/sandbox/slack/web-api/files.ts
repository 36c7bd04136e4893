/**
 * The Web API's files.*: Slack's external upload (an upload URL, then completing it into a channel or thread) and
 * file info; each file's type from its name.
 */
import { randomBytes } from 'node:crypto';
import { postMessage, SlackApiError } from '../ops';
import { fileObject } from '../present';
import { isRecord } from '../sender';
import type { Channel, SandboxFile } from '../types';
import type { MethodDeps, MethodTable } from './args';
import { jsonArg, required, str } from './args';

export function fileMethods({ ctx }: MethodDeps): MethodTable {
  const { state } = ctx;
  return {
    'files.getUploadURLExternal': (call) => {
      const filename = required(call.args, 'filename');
      const length = Number(required(call.args, 'length'));
      if (!Number.isInteger(length) || length < 0)
        throw new SlackApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] length must be a positive integer'] } });
      if (length > 1024 * 1024 * 1024) throw new SlackApiError('file_size_too_large');
      const file: SandboxFile = {
        id: state.nextId('F'),
        teamId: call.ws.id,
        user: call.auth.userId,
        name: filename,
        title: filename,
        mimetype: mimeOf(filename),
        filetype: extOf(filename),
        size: length,
        declaredLength: length,
        created: Math.floor(Date.now() / 1000),
        uploaded: false,
        completed: false,
        altText: str(call.args, 'alt_txt') ?? str(call.args, 'alt_text'),
        channels: [],
        uploadToken: randomBytes(16).toString('hex'),
      };
      state.data.files.push(file);
      state.changed();
      return { upload_url: `${ctx.baseUrl}/files-upload/${file.id}/${file.uploadToken}`, file_id: file.id };
    },

    'files.completeUploadExternal': (call) => {
      const list = jsonArg(call.args, 'files');
      if (!Array.isArray(list) || list.length === 0)
        throw new SlackApiError('invalid_arguments', { response_metadata: { messages: ['[ERROR] missing required field: files'] } });
      const channelId = str(call.args, 'channel_id') ?? str(call.args, 'channels')?.split(',')[0];
      const threadTs = str(call.args, 'thread_ts');
      const comment = str(call.args, 'initial_comment');
      const files = list.map((entry) => {
        const id = isRecord(entry) ? String(entry.id ?? '') : '';
        const f = state.file(id);
        if (!f || f.teamId !== call.ws.id || f.user !== call.auth.userId) throw new SlackApiError('file_not_found');
        if (!f.uploaded) throw new SlackApiError('file_upload_not_found');
        if (f.completed) throw new SlackApiError('file_already_completed');
        if (isRecord(entry) && typeof entry.title === 'string' && entry.title) f.title = entry.title;
        return f;
      });
      let channel: Channel | undefined;
      if (channelId) {
        channel = state.channel(channelId);
        if (!channel || channel.teamId !== call.ws.id) throw new SlackApiError('channel_not_found');
        if (channel.isArchived) throw new SlackApiError('is_archived');
        if (!channel.members.includes(call.auth.userId)) throw new SlackApiError('not_in_channel');
      }
      for (const f of files) {
        f.completed = true;
        if (channel) f.channels.push(channel.id);
      }
      state.changed();
      if (channel) {
        postMessage(ctx, {
          teamId: call.ws.id,
          channel,
          user: call.auth.userId,
          text: comment ?? '',
          threadTs,
          files: files.map((f) => f.id),
        });
      }
      return { files: files.map((f) => ({ id: f.id, title: f.title })) };
    },

    'files.info': (call) => {
      const id = required(call.args, 'file');
      const f = state.file(id);
      if (!f || f.teamId !== call.ws.id || !f.completed) throw new SlackApiError('file_not_found');
      const visible =
        f.user === call.auth.userId ||
        f.channels.some((cid) => state.channel(cid)?.members.includes(call.auth.userId) || !state.channel(cid)?.isPrivate);
      if (!visible) throw new SlackApiError('file_not_found');
      return { file: fileObject(ctx, f), comments: [], response_metadata: { next_cursor: '' } };
    },
  };
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
};

export function extOf(name: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  return m ? m[1].toLowerCase() : 'binary';
}

export function mimeOf(name: string): string {
  return MIME[extOf(name)] ?? 'application/octet-stream';
}
