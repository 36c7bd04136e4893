// Presenters: sandbox records in the exact JSON shapes the Web API, the Events API and interactivity payloads use.

import type { SandboxState } from './state';
import type { Channel, Message, SandboxFile, SandboxUser, SandboxView, Workspace } from './types';

export interface PresentContext {
  state: SandboxState;
  baseUrl: string;
  appId: string;
}

export function userObject(u: SandboxUser, withEmail: boolean): Record<string, unknown> {
  const [first = '', ...rest] = u.realName.split(' ');
  const profile: Record<string, unknown> = {
    title: u.title ?? '',
    phone: '',
    skype: '',
    real_name: u.realName,
    real_name_normalized: u.realName,
    display_name: u.displayName ?? '',
    display_name_normalized: u.displayName ?? '',
    fields: null,
    status_text: '',
    status_emoji: '',
    status_expiration: 0,
    avatar_hash: `g${u.id.slice(-10).toLowerCase()}`,
    first_name: first,
    last_name: rest.join(' '),
    image_24: u.image,
    image_32: u.image,
    image_48: u.image,
    image_72: u.image,
    image_192: u.image,
    image_512: u.image,
    team: u.teamId,
  };
  if (withEmail && u.email && !u.isBot) profile.email = u.email;
  if (u.isBot) {
    profile.bot_id = u.botId;
    profile.api_app_id = u.appId ?? '';
    profile.always_active = true;
  }
  return {
    id: u.id,
    team_id: u.teamId,
    name: u.name,
    deleted: u.deleted ?? false,
    color: '9f69e7',
    real_name: u.realName,
    tz: u.tz ?? 'Europe/London',
    tz_label: 'Greenwich Mean Time',
    tz_offset: 0,
    profile,
    is_admin: u.isAdmin ?? false,
    is_owner: u.isAdmin ?? false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: u.isBot,
    is_app_user: false,
    updated: 1700000000,
    is_email_confirmed: !u.isBot,
    who_can_share_contact_card: 'EVERYONE',
  };
}

export function channelObject(c: Channel, forUserId: string | null): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    is_channel: !c.isPrivate,
    is_group: c.isPrivate,
    is_im: c.isIm === true,
    is_mpim: false,
    is_private: c.isPrivate,
    created: c.created,
    is_archived: c.isArchived,
    is_general: c.isGeneral,
    unlinked: 0,
    name_normalized: c.name,
    is_shared: false,
    is_org_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: c.teamId,
    updated: c.created * 1000,
    parent_conversation: null,
    creator: c.creator,
    is_ext_shared: false,
    shared_team_ids: [c.teamId],
    pending_connected_team_ids: [],
    ...(forUserId ? { is_member: c.members.includes(forUserId) } : {}),
    topic: c.topic,
    purpose: c.purpose,
    previous_names: c.previousNames,
    num_members: c.members.length,
  };
}

function botProfile(ctx: PresentContext, bot: SandboxUser): Record<string, unknown> {
  return {
    id: bot.botId,
    app_id: bot.appId ?? ctx.appId,
    user_id: bot.id,
    name: bot.realName,
    icons: { image_36: bot.image, image_48: bot.image, image_72: bot.image },
    deleted: false,
    updated: 1700000000,
    team_id: bot.teamId,
  };
}

export function fileObject(ctx: PresentContext, f: SandboxFile): Record<string, unknown> {
  const ws = ctx.state.workspace(f.teamId);
  const privateUrl = `${ctx.baseUrl}/files-pri/${f.teamId}-${f.id}/${encodeURIComponent(f.name)}`;
  return {
    id: f.id,
    created: f.created,
    timestamp: f.created,
    name: f.name,
    title: f.title,
    mimetype: f.mimetype,
    filetype: f.filetype,
    pretty_type: f.filetype.toUpperCase(),
    user: f.user,
    user_team: f.teamId,
    editable: false,
    size: f.size,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: f.channels.length > 0,
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: privateUrl,
    url_private_download: `${privateUrl}?download=1`,
    permalink: `${ws?.url ?? `${ctx.baseUrl}/`}files/${f.user}/${f.id}/${encodeURIComponent(f.name)}`,
    permalink_public: `${ws?.url ?? `${ctx.baseUrl}/`}T-${f.id}`,
    alt_txt: f.altText,
    comments_count: 0,
    is_starred: false,
    shares: {},
    channels: f.channels,
    groups: [],
    ims: [],
    has_rich_preview: false,
    file_access: 'visible',
  };
}

/**
 * A message as conversations.history, chat.postMessage and the Events API present it. `metadata`: false leaves
 * the message metadata out, as conversations.history and conversations.replies do without include_all_metadata.
 */
export function messageObject(ctx: PresentContext, m: Message, opts: { metadata?: boolean } = {}): Record<string, unknown> {
  const { state } = ctx;
  if (m.tombstone) {
    return {
      type: 'message',
      subtype: 'tombstone',
      text: 'This message was deleted.',
      user: 'USLACKBOT',
      hidden: true,
      ts: m.ts,
      thread_ts: m.threadTs,
      ...threadFields(state, m),
    };
  }
  const out: Record<string, unknown> = { type: 'message', text: m.text, user: m.user, ts: m.ts, team: m.teamId };
  if (m.botId) {
    out.bot_id = m.botId;
    out.app_id = m.appId;
    const bot = state.user(m.user);
    if (m.username || m.iconUrl || m.iconEmoji) {
      out.subtype = 'bot_message';
      out.username = m.username ?? bot?.realName;
      out.icons = m.iconEmoji ? { emoji: m.iconEmoji } : { image_48: m.iconUrl, image_72: m.iconUrl };
    }
    if (bot) out.bot_profile = botProfile(ctx, bot);
  } else if (m.clientMsgId) {
    out.client_msg_id = m.clientMsgId;
  }
  if (m.blocks) out.blocks = m.blocks;
  if (m.attachments) out.attachments = m.attachments;
  if (m.metadata && opts.metadata !== false) out.metadata = m.metadata;
  if (m.files?.length) {
    out.files = m.files
      .map((id) => state.file(id))
      .filter((f) => !!f)
      .map((f) => fileObject(ctx, f));
    out.upload = true;
    out.display_as_bot = false;
  }
  if (m.edited) out.edited = m.edited;
  if (m.reactions?.length) out.reactions = m.reactions.map((r) => ({ name: r.name, users: [...r.users], count: r.users.length }));
  if (m.threadTs) {
    out.thread_ts = m.threadTs;
    if (m.threadTs !== m.ts) {
      const parent = state.message(m.channel, m.threadTs);
      if (parent) out.parent_user_id = parent.user;
      if (m.replyBroadcast) out.subtype = 'thread_broadcast';
    }
  }
  Object.assign(out, threadFields(state, m));
  return out;
}

function threadFields(state: SandboxState, m: Message): Record<string, unknown> {
  const replies = state.replies(m.channel, m.ts);
  if (replies.length === 0) return {};
  const users = [...new Set(replies.map((r) => r.user))];
  return {
    thread_ts: m.ts,
    reply_count: replies.length,
    reply_users_count: users.length,
    latest_reply: replies[replies.length - 1].ts,
    reply_users: users.slice(0, 5),
    is_locked: false,
    subscribed: false,
  };
}

/** A view as views.* and view_submission present it. */
export function viewObject(ctx: PresentContext, v: SandboxView): Record<string, unknown> {
  const d = v.definition;
  const bot = ctx.state.installation(v.teamId);
  return {
    id: v.id,
    team_id: v.teamId,
    type: v.type,
    blocks: d.blocks ?? [],
    private_metadata: d.private_metadata ?? '',
    callback_id: d.callback_id ?? '',
    state: { values: v.values },
    hash: v.hash,
    title: d.title ?? null,
    clear_on_close: d.clear_on_close ?? false,
    notify_on_close: d.notify_on_close ?? false,
    close: d.close ?? null,
    submit: d.submit ?? null,
    previous_view_id: v.previousViewId,
    root_view_id: v.rootViewId,
    app_id: ctx.appId,
    external_id: v.externalId,
    app_installed_team_id: v.teamId,
    bot_id: bot?.botId ?? '',
  };
}

export function teamObject(w: Workspace): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    domain: w.domain,
    email_domain: w.emailDomain ?? '',
    icon: { image_default: true, image_34: '', image_44: '', image_68: '', image_88: '', image_102: '', image_132: '', image_230: '' },
    avatar_base_url: '',
    is_verified: false,
  };
}
