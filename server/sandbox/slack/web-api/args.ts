/**
 * What every Web API method is given (a call: its arguments, the token's installation and workspace) and the
 * argument rules the methods share: strings, booleans, JSON arguments, cursor pages, the channels and users the
 * caller may see, a message's text, blocks, attachments and metadata. Each breach answers Slack's own error code.
 */
import { SlackApiError } from '../ops';
import type { PresentContext } from '../present';
import type { Sender } from '../sender';
import { isRecord } from '../sender';
import type { SandboxState, TokenInfo } from '../state';
import type { Channel, SandboxUser, Workspace } from '../types';

export interface AppCredentials {
  clientId: string;
  clientSecret: string;
  appId: string;
  name: string;
}

export type Args = Record<string, unknown>;

export interface Call {
  args: Args;
  auth: TokenInfo;
  ws: Workspace;
}

export type Handler = (call: Call) => Record<string, unknown>;

/** Methods by their Slack name. */
export type MethodTable = Record<string, Handler>;

/** What a family of methods is built with. */
export interface MethodDeps {
  ctx: PresentContext;
  sender: Sender;
  app: AppCredentials;
}

/** A family of methods (chat.*, conversations.*…): one file of web-api/, one line of the table in index.ts. */
export type MethodFamily = (deps: MethodDeps) => MethodTable;

export const MAX_TEXT = 40_000;
export const MAX_BLOCKS = 50;

export const str = (args: Args, name: string): string | undefined => {
  const v = args[name];
  if (v === undefined || v === null || v === '') return undefined;
  return String(v);
};

export const required = (args: Args, name: string): string => {
  const v = str(args, name);
  if (v === undefined)
    throw new SlackApiError('invalid_arguments', { response_metadata: { messages: [`[ERROR] missing required field: ${name}`] } });
  return v;
};

export const bool = (args: Args, name: string): boolean => {
  const v = args[name];
  return v === true || v === 'true' || v === '1' || v === 1;
};

export const jsonArg = (args: Args, name: string, errorCode = 'invalid_arguments'): unknown => {
  const v = args[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw new SlackApiError(errorCode, { response_metadata: { messages: [`[ERROR] ${name} must be valid JSON`] } });
  }
};

const limitArg = (args: Args, dflt: number, max: number): number => {
  const raw = str(args, 'limit');
  if (raw === undefined) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new SlackApiError('invalid_limit');
  if (n === 0) return dflt;
  return Math.min(n, max);
};

/** One page of `items` by the call's `limit` and `cursor`, and the cursor of the next page ('' at the end). */
export const page = <T>(items: T[], args: Args, dflt: number, max: number): { items: T[]; next: string } => {
  const limit = limitArg(args, dflt, max);
  const cursor = str(args, 'cursor');
  let start = 0;
  if (cursor) {
    const decoded = Buffer.from(cursor, 'base64').toString('utf8');
    const m = /^next:(\d+)$/.exec(decoded);
    if (!m) throw new SlackApiError('invalid_cursor');
    start = Number(m[1]);
  }
  const slice = items.slice(start, start + limit);
  const next = start + limit < items.length ? Buffer.from(`next:${start + limit}`).toString('base64') : '';
  return { items: slice, next };
};

export const channelArg = (state: SandboxState, call: Call, name = 'channel'): Channel => {
  const id = required(call.args, name);
  const c = state.channel(id) ?? (id.startsWith('#') ? state.channelByName(call.ws.id, id.slice(1)) : undefined);
  if (!c || c.teamId !== call.ws.id) throw new SlackApiError('channel_not_found');
  // Private channels are invisible to non-members.
  if (c.isPrivate && !c.members.includes(call.auth.userId)) throw new SlackApiError('channel_not_found');
  return c;
};

export const postTarget = (state: SandboxState, call: Call): Channel => {
  const raw = required(call.args, 'channel');
  let c = state.channel(raw);
  if (!c) {
    const name = raw.replace(/^#/, '');
    c = state.channelByName(call.ws.id, name);
  }
  if (!c || c.teamId !== call.ws.id || (c.isPrivate && !c.members.includes(call.auth.userId))) throw new SlackApiError('channel_not_found');
  return c;
};

export const mustBeMember = (call: Call, c: Channel): void => {
  if (!c.members.includes(call.auth.userId)) throw new SlackApiError('not_in_channel');
};

export const userArg = (state: SandboxState, call: Call, name = 'user'): SandboxUser => {
  const id = required(call.args, name);
  const u = state.user(id);
  if (!u || u.teamId !== call.ws.id) throw new SlackApiError('user_not_found');
  return u;
};

export const messageBody = (args: Args): { text: string; blocks?: unknown[]; attachments?: unknown[] } => {
  const text = str(args, 'text') ?? '';
  const blocks = jsonArg(args, 'blocks', 'invalid_blocks_format');
  const attachments = jsonArg(args, 'attachments', 'invalid_attachments');
  if (blocks !== undefined) {
    if (!Array.isArray(blocks) || blocks.some((b) => !isRecord(b) || typeof b.type !== 'string')) throw new SlackApiError('invalid_blocks');
    if (blocks.length > MAX_BLOCKS) throw new SlackApiError('invalid_blocks');
  }
  if (attachments !== undefined && !Array.isArray(attachments)) throw new SlackApiError('invalid_attachments');
  if (Array.isArray(attachments) && attachments.length > 100) throw new SlackApiError('too_many_attachments');
  if (text.length > MAX_TEXT) throw new SlackApiError('msg_too_long');
  const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
  const hasAttachments = Array.isArray(attachments) && attachments.length > 0;
  if (!text && !hasBlocks && !hasAttachments) throw new SlackApiError('no_text');
  return {
    text,
    blocks: hasBlocks ? (blocks as unknown[]) : undefined,
    attachments: hasAttachments ? (attachments as unknown[]) : undefined,
  };
};

export const withEmail = (auth: TokenInfo) => auth.scopes.includes('users:read.email');

// Message metadata: { event_type, event_payload }, an object or its JSON (form-encoded calls send JSON).
export const metadataArg = (args: Args): Record<string, unknown> | undefined => {
  const v = jsonArg(args, 'metadata', 'invalid_metadata_format');
  if (v === undefined) return undefined;
  if (!isRecord(v)) throw new SlackApiError('invalid_metadata_format');
  if (typeof v.event_type !== 'string' || v.event_type === '' || !isRecord(v.event_payload))
    throw new SlackApiError('invalid_metadata_schema');
  return { event_type: v.event_type, event_payload: v.event_payload };
};
