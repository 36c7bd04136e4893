// Workspace operations shared by the Web API, the operator page and the test helpers. Each one changes the
// state the way Slack would and emits the Events API event Slack would send for it.
import { randomBytes } from 'node:crypto';
import type { PresentContext } from './present';
import { messageObject } from './present';
import type { Channel, Installation, Message, Workspace } from './types';

export class SlackApiError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

/** Queues an Events API event for the app installed in `teamId` (delivered by the sender). */
export function emitEvent(ctx: PresentContext, teamId: string, event: Record<string, unknown>): void {
  ctx.state.emit('slack-event', teamId, event);
}

const CHANNEL_NAME_MAX = 80;

/** Slack's channel naming rules: lowercase letters, digits, hyphens and underscores, at most 80 characters. */
export function checkChannelName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw new SlackApiError('invalid_name_required');
  if (name.length > CHANNEL_NAME_MAX) throw new SlackApiError('invalid_name_maxlength');
  if (/^[-_]+$/.test(name)) throw new SlackApiError('invalid_name_punctuation');
  if (!/^[a-z0-9_-]+$/.test(name)) throw new SlackApiError('invalid_name_specials');
  return name;
}

export function createChannel(ctx: PresentContext, teamId: string, name: string, creator: string, isPrivate = false): Channel {
  checkChannelName(name);
  if (ctx.state.channelByName(teamId, name)) throw new SlackApiError('name_taken');
  const now = Math.floor(Date.now() / 1000);
  const channel: Channel = {
    id: ctx.state.nextId('C'),
    teamId,
    name,
    created: now,
    creator,
    isArchived: false,
    isGeneral: false,
    isPrivate,
    members: [creator],
    topic: { value: '', creator: '', last_set: 0 },
    purpose: { value: '', creator: '', last_set: 0 },
    previousNames: [],
  };
  ctx.state.data.channels.push(channel);
  ctx.state.changed();
  emitEvent(ctx, teamId, { type: 'channel_created', channel: { id: channel.id, name, created: now, creator }, event_ts: eventTs() });
  return channel;
}

/** The DM between a person and the installed app (its Messages tab), opened the first time it is needed. */
export function openAppDm(ctx: PresentContext, teamId: string, userId: string): Channel {
  const inst = ctx.state.installation(teamId);
  if (!inst) throw new SlackApiError('app_not_installed');
  const id = `D${userId.slice(1)}`;
  const existing = ctx.state.channel(id);
  if (existing) return existing;
  const channel: Channel = {
    id,
    teamId,
    name: userId,
    created: Math.floor(Date.now() / 1000),
    creator: userId,
    isArchived: false,
    isGeneral: false,
    isPrivate: true,
    isIm: true,
    members: [userId, inst.botUserId],
    topic: { value: '', creator: '', last_set: 0 },
    purpose: { value: '', creator: '', last_set: 0 },
    previousNames: [],
  };
  ctx.state.data.channels.push(channel);
  ctx.state.changed();
  return channel;
}

const MAX_JOINS_KEPT = 1000;

export function joinChannel(ctx: PresentContext, channel: Channel, userId: string, inviter?: string): boolean {
  if (channel.isArchived) throw new SlackApiError('is_archived');
  if (channel.members.includes(userId)) return false;
  channel.members.push(userId);
  // Kept apart from the messages (conversations.history stays as it was); the operator page shows them as Slack's system lines.
  const joins = (ctx.state.data.joins ??= []);
  joins.push({ channel: channel.id, user: userId, ts: eventTs() });
  if (joins.length > MAX_JOINS_KEPT) joins.splice(0, joins.length - MAX_JOINS_KEPT);
  ctx.state.changed();
  emitEvent(ctx, channel.teamId, {
    type: 'member_joined_channel',
    user: userId,
    channel: channel.id,
    channel_type: channel.isPrivate ? 'G' : 'C',
    team: channel.teamId,
    ...(inviter ? { inviter } : {}),
    event_ts: eventTs(),
  });
  return true;
}

export function leaveChannel(ctx: PresentContext, channel: Channel, userId: string): void {
  if (!channel.members.includes(userId)) return;
  channel.members = channel.members.filter((m) => m !== userId);
  ctx.state.changed();
  emitEvent(ctx, channel.teamId, {
    type: 'member_left_channel',
    user: userId,
    channel: channel.id,
    channel_type: channel.isPrivate ? 'G' : 'C',
    team: channel.teamId,
    event_ts: eventTs(),
  });
}

export function renameChannel(ctx: PresentContext, channel: Channel, name: string): void {
  checkChannelName(name);
  const other = ctx.state.channelByName(channel.teamId, name);
  if (other && other.id !== channel.id) throw new SlackApiError('name_taken');
  if (channel.name === name) return;
  channel.previousNames.unshift(channel.name);
  channel.name = name;
  ctx.state.changed();
  emitEvent(ctx, channel.teamId, {
    type: 'channel_rename',
    channel: { id: channel.id, name, name_normalized: name, created: channel.created, is_channel: true, is_mpim: false },
    event_ts: eventTs(),
  });
}

export function archiveChannel(ctx: PresentContext, channel: Channel, userId: string): void {
  if (channel.isArchived) throw new SlackApiError('already_archived');
  if (channel.isGeneral) throw new SlackApiError('cant_archive_general');
  channel.isArchived = true;
  ctx.state.changed();
  emitEvent(ctx, channel.teamId, { type: 'channel_archive', channel: channel.id, user: userId, event_ts: eventTs() });
}

export function unarchiveChannel(ctx: PresentContext, channel: Channel, userId: string): void {
  if (!channel.isArchived) throw new SlackApiError('not_archived');
  channel.isArchived = false;
  ctx.state.changed();
  emitEvent(ctx, channel.teamId, { type: 'channel_unarchive', channel: channel.id, user: userId, event_ts: eventTs() });
}

export function setTopic(ctx: PresentContext, channel: Channel, userId: string, topic: string): void {
  channel.topic = { value: topic, creator: userId, last_set: Math.floor(Date.now() / 1000) };
  ctx.state.changed();
}

/** A post's fields as the message keeps them, in the channel given. */
export type PostInput = Pick<
  Message,
  | 'teamId'
  | 'user'
  | 'text'
  | 'blocks'
  | 'attachments'
  | 'threadTs'
  | 'replyBroadcast'
  | 'username'
  | 'iconUrl'
  | 'iconEmoji'
  | 'metadata'
  | 'files'
> & { channel: Channel };

/** Posts a message (human or bot) and sends the `message` event to the app when its bot is in the channel. */
export function postMessage(ctx: PresentContext, input: PostInput): Message {
  const { state } = ctx;
  if (input.channel.isArchived) throw new SlackApiError('is_archived');
  const author = state.user(input.user);
  const isBot = !!author?.isBot;
  let threadTs = input.threadTs || undefined;
  if (threadTs) {
    const parent = state.message(input.channel.id, threadTs);
    // A reply to a reply lands in the reply's thread, as in Slack.
    if (parent?.threadTs) threadTs = parent.threadTs;
    if (parent && !parent.threadTs) parent.threadTs = parent.ts;
  }
  const message: Message = {
    channel: input.channel.id,
    ts: state.nextTs(),
    teamId: input.teamId,
    user: input.user,
    text: input.text,
    ...(input.blocks ? { blocks: input.blocks } : {}),
    ...(input.attachments ? { attachments: input.attachments } : {}),
    ...(threadTs ? { threadTs } : {}),
    ...(threadTs && input.replyBroadcast ? { replyBroadcast: true } : {}),
    ...(input.username ? { username: input.username } : {}),
    ...(input.iconUrl ? { iconUrl: input.iconUrl } : {}),
    ...(input.iconEmoji ? { iconEmoji: input.iconEmoji } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
    ...(input.files?.length ? { files: input.files } : {}),
  };
  if (isBot) {
    message.botId = author?.botId;
    message.appId = author?.appId ?? ctx.appId;
  } else {
    message.clientMsgId = cryptoUuid();
    if (!message.blocks && input.text) {
      message.blocks = [
        {
          type: 'rich_text',
          block_id: randomBytes(3).toString('base64url'),
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: input.text }] }],
        },
      ];
    }
  }
  state.addMessage(message);
  state.changed();
  emitMessageEvent(ctx, input.channel, message);
  return message;
}

function emitMessageEvent(ctx: PresentContext, channel: Channel, message: Message): void {
  const inst = ctx.state.installation(channel.teamId);
  // message.channels reaches the app only for channels its bot user is in.
  if (!inst || !channel.members.includes(inst.botUserId)) return;
  // message.im needs im:history, as in Slack: an app installed without it never hears its DMs.
  if (channel.isIm && !inst.botScopes.includes('im:history')) return;
  const body = messageObject(ctx, message);
  delete body.reply_count;
  delete body.reply_users;
  delete body.reply_users_count;
  delete body.latest_reply;
  delete body.is_locked;
  delete body.subscribed;
  if (message.files?.length && !message.botId) body.subtype = 'file_share';
  emitEvent(ctx, channel.teamId, {
    ...body,
    channel: channel.id,
    event_ts: message.ts,
    channel_type: channel.isIm ? 'im' : channel.isPrivate ? 'group' : 'channel',
  });
  // Slack also announces each file a person shares (file_shared, for apps subscribed to it).
  if (!message.botId) {
    for (const fileId of message.files ?? []) {
      emitEvent(ctx, channel.teamId, {
        type: 'file_shared',
        file_id: fileId,
        user_id: message.user,
        file: { id: fileId },
        channel_id: channel.id,
        event_ts: message.ts,
      });
    }
  }
}

export function updateMessage(
  ctx: PresentContext,
  message: Message,
  changes: { text?: string; blocks?: unknown[]; attachments?: unknown[]; editor: string },
): void {
  const { state } = ctx;
  const channel = state.channel(message.channel);
  if (!channel) throw new SlackApiError('channel_not_found');
  if (channel.isArchived) throw new SlackApiError('is_archived');
  const previous = messageObject(ctx, message);
  if (changes.text !== undefined) message.text = changes.text;
  // Slack keeps the blocks when an update omits them and removes them for an empty list.
  if (changes.blocks !== undefined) message.blocks = changes.blocks.length > 0 ? changes.blocks : undefined;
  else if (!message.botId && changes.text !== undefined && message.blocks) {
    message.blocks = [
      {
        type: 'rich_text',
        block_id: randomBytes(3).toString('base64url'),
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: changes.text }] }],
      },
    ];
  }
  if (changes.attachments !== undefined) message.attachments = changes.attachments;
  const ts = state.nextTs();
  message.edited = { user: changes.editor, ts };
  state.changed();
  const inst = state.installation(channel.teamId);
  if (!inst || !channel.members.includes(inst.botUserId)) return;
  emitEvent(ctx, channel.teamId, {
    type: 'message',
    subtype: 'message_changed',
    message: { ...messageObject(ctx, message) },
    channel: channel.id,
    hidden: true,
    ts,
    event_ts: ts,
    previous_message: previous,
    channel_type: 'channel',
  });
}

export function deleteMessage(ctx: PresentContext, message: Message): void {
  const { state } = ctx;
  const channel = state.channel(message.channel);
  if (!channel) throw new SlackApiError('channel_not_found');
  const previous = messageObject(ctx, message);
  const hasReplies = message.threadTs === message.ts && state.replies(message.channel, message.ts).length > 0;
  if (hasReplies) {
    message.tombstone = true;
    message.text = '';
    message.blocks = undefined;
  } else {
    state.removeMessage(message);
  }
  state.changed();
  const inst = state.installation(channel.teamId);
  if (!inst || !channel.members.includes(inst.botUserId)) return;
  const ts = state.nextTs();
  emitEvent(ctx, channel.teamId, {
    type: 'message',
    subtype: 'message_deleted',
    hidden: true,
    deleted_ts: message.ts,
    channel: channel.id,
    previous_message: previous,
    ts,
    event_ts: ts,
    channel_type: 'channel',
  });
}

/** Removes the app from a workspace: its tokens stop working and app_uninstalled/tokens_revoked are sent. */
export function uninstallApp(ctx: PresentContext, teamId: string): boolean {
  const { state } = ctx;
  const inst = state.installation(teamId);
  if (!inst) return false;
  const at = Date.now();
  state.data.revokedTokens.push({ token: inst.botToken, teamId, at });
  for (const t of Object.values(inst.userTokens)) state.data.revokedTokens.push({ token: t.token, teamId, at });
  // The app's bot leaves every channel: a reinstall starts from scratch, as in Slack.
  for (const c of state.channelsOf(teamId)) c.members = c.members.filter((m) => m !== inst.botUserId);
  state.data.installations = state.data.installations.filter((i) => i !== inst);
  state.changed();
  state.emit(
    'slack-event-forced',
    teamId,
    { type: 'tokens_revoked', tokens: { oauth: Object.keys(inst.userTokens), bot: [inst.botUserId] }, event_ts: eventTs() },
    inst,
  );
  state.emit('slack-event-forced', teamId, { type: 'app_uninstalled', event_ts: eventTs() }, inst);
  return true;
}

/** Revokes one token (auth.revoke); revoking the bot token removes the installation. */
export function revokeToken(ctx: PresentContext, token: string): boolean {
  const { state } = ctx;
  const info = state.resolveToken(token);
  if (!info || info === 'revoked') return false;
  if (info.kind === 'bot') return uninstallApp(ctx, info.installation.teamId);
  delete info.installation.userTokens[info.userId];
  state.data.revokedTokens.push({ token, teamId: info.installation.teamId, at: Date.now() });
  state.changed();
  emitEvent(ctx, info.installation.teamId, { type: 'tokens_revoked', tokens: { oauth: [info.userId], bot: [] }, event_ts: eventTs() });
  return true;
}

function eventTs(): string {
  const now = Date.now();
  return `${Math.floor(now / 1000)}.${String((now % 1000) * 1000).padStart(6, '0')}`;
}

function cryptoUuid(): string {
  return globalThis.crypto.randomUUID();
}

/** Creates or widens the app's installation in a workspace; scopes granted before are kept, as in Slack. */
export function installApp(
  ctx: PresentContext,
  app: { appId: string; name: string },
  ws: Workspace,
  userId: string,
  botScopes: string[],
  userScopes: string[],
): Installation {
  const { state } = ctx;
  let inst = state.installation(ws.id);
  if (!inst) {
    let bot = state.usersOf(ws.id).find((u) => u.isBot && u.appId === app.appId);
    if (!bot) {
      bot = {
        id: state.nextId('U'),
        teamId: ws.id,
        name: app.name.toLowerCase().replace(/[^a-z0-9]+/g, ''),
        realName: app.name,
        displayName: app.name,
        isBot: true,
        botId: state.nextId('B'),
        appId: app.appId,
        presence: 'active',
        image: botAvatar(app.name),
      };
      state.data.users.push(bot);
    }
    inst = {
      teamId: ws.id,
      botUserId: bot.id,
      botId: bot.botId ?? '',
      botToken: `xoxb-${numeric(ws.id)}-${numeric(bot.id)}-${randomBytes(12).toString('base64url')}`,
      botScopes: [],
      installerUserId: userId,
      userTokens: {},
      installedAt: Date.now(),
    };
    state.data.installations.push(inst);
  }
  inst.botScopes = union(inst.botScopes, botScopes);
  if (userScopes.length > 0) {
    const existing = inst.userTokens[userId];
    inst.userTokens[userId] = {
      token: existing?.token ?? `xoxp-${numeric(ws.id)}-${numeric(userId)}-${randomBytes(12).toString('base64url')}`,
      scopes: union(existing?.scopes ?? [], userScopes),
    };
  }
  state.changed();
  return inst;
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

function numeric(id: string): string {
  let n = 0;
  for (const ch of id) n = (n * 31 + ch.charCodeAt(0)) % 1e12;
  return String(n);
}

function botAvatar(name: string): string {
  const letter = (name[0] ?? 'A').toUpperCase();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72"><rect width="72" height="72" rx="14" fill="#611f69"/><text x="36" y="48" font-family="Arial,sans-serif" font-size="34" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
