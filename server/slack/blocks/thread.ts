/**
 * Block Kit of what Parley posts in a conversation's Slack thread: the conversation header (the thread
 * parent), Parley's own posts (saved replies, reminders) and small context lines. The header is rebuilt from
 * the stored state each time, so `chat.update` is idempotent.
 */

import type { ThreadPost } from '../../commands/threadPosts';
import { identityProof } from '../../conversations/identity';
import { visitorLabel } from '../../conversations/visitors';
import { languageName } from '../../conversations/widgetLanguage';
import type { ChatEndpoint } from '../../models/ChatEndpoint';
import type { Conversation } from '../../models/Conversation';
import type { Visitor } from '../../models/Visitor';
import { escapeMrkdwn } from '../../shared/mrkdwn';
import { assigneeBlocks } from './inbox';
import { tagTargetBlocks } from './inboxTags';

/** Action ids of the header buttons; their handlers live with the Slack actions (value: the conversation id). */
export const HEADER_ACTIONS = {
  end: 'conversation_end',
  askEmail: 'conversation_ask_email',
  screenshot: 'conversation_screenshot',
  savedReplies: 'conversation_saved_replies',
  visitorInfo: 'conversation_visitor_info',
  sendTranscript: 'conversation_send_transcript',
} as const;

type Block = Record<string, unknown>;

/** Beside a visitor's name and e-mail when the site verified their identity (a valid userHash). */
export const VERIFIED_MARK = ':ballot_box_with_check: _verified_';
/** Beside a visitor's name when the widget has an identity secret and the identity the site passed was not proven. */
export const UNVERIFIED_MARK = ':warning: _unverified_';

export function browserOf(userAgent: string): string {
  if (!userAgent) return '';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : 'Other browser';
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

function statusLine(c: Conversation): string {
  const parts: string[] = [];
  if (c.status === 'ended') {
    const by = c.endedBy === 'operator' ? 'an operator' : c.endedBy === 'inactivity' ? 'inactivity' : 'the visitor';
    parts.push(`:white_check_mark: Ended by ${by}`);
  } else if (c.agentName) {
    parts.push(`:speech_balloon: Answered by ${escapeMrkdwn(c.agentName)}`);
  } else {
    parts.push(':hourglass_flowing_sand: Waiting for an answer');
  }
  if (c.agentName && c.status === 'ended') parts.push(`answered by ${escapeMrkdwn(c.agentName)}`);
  if (c.rating) parts.push(`rated ${c.rating === 'up' ? ':+1:' : ':-1:'}${c.feedback ? ` “${escapeMrkdwn(c.feedback)}”` : ''}`);
  return parts.join(' · ');
}

export function headerMessage(input: {
  ce: Pick<ChatEndpoint, 'metaInfoInMainChannel' | 'identitySecret' | 'tags'>;
  conversation: Conversation & { _id: unknown };
  visitor: Visitor;
  firstMessage: string;
}): { text: string; blocks: Block[] } {
  const { ce, conversation: c, visitor: v } = input;
  const name = visitorLabel(v, c.number);
  const mode = ce.metaInfoInMainChannel;
  // The top-level text is Slack's notification text and is parsed as mrkdwn like the blocks: escaped the same way.
  const text = `Conversation #${c.number} with ${escapeMrkdwn(name)}`;
  // The site proved who this visitor is (a valid userHash): say so beside the name and the e-mail it gave.
  const proof = identityProof(v, ce);
  const verified = proof === 'verified' ? ` ${VERIFIED_MARK}` : proof === 'unverified' ? ` ${UNVERIFIED_MARK}` : '';
  const emailMark = v.verifiedUserId && v.email && v.email === v.verifiedEmail ? ` ${VERIFIED_MARK}` : '';
  const blocks: Block[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*#${c.number} · ${escapeMrkdwn(name)}*${verified}` } }];
  const location = [v.location.city, v.location.country].filter(Boolean).join(', ');
  const page = c.pageUrl || v.currentPage;
  const language = v.language ? languageName(v.language) : '';
  if (mode === 'full') {
    const fields = [
      ['Name', v.name || '—', v.name ? verified : ''],
      ['E-mail', v.email || '—', emailMark],
      ['Page', page || '—', ''],
      ['Location', location || '—', ''],
      ['Browser', browserOf(v.userAgent) || '—', ''],
      ['Language', language || '—', ''],
    ].map(([label, value, mark]) => ({ type: 'mrkdwn', text: `*${label}*\n${escapeMrkdwn(value ?? '')}${mark ?? ''}` }));
    blocks.push({ type: 'section', fields });
  } else if (mode === 'compact') {
    const bits = [v.email, page, location, browserOf(v.userAgent), language].filter(Boolean).map(escapeMrkdwn);
    if (emailMark && bits[0]) bits[0] += emailMark;
    if (bits.length > 0) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: bits.join(' · ') }] });
  }
  if (mode !== 'none' && input.firstMessage) {
    const quoted = escapeMrkdwn(input.firstMessage.slice(0, 2800)).replace(/^/gm, '> ');
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: quoted } });
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: statusLine(c) }] });
  blocks.push(...assigneeBlocks(c));
  blocks.push(...tagTargetBlocks(c, ce));
  const value = String(c._id);
  const button = (label: string, actionId: string, style?: 'danger' | 'primary'): Block => ({
    type: 'button',
    text: { type: 'plain_text', text: label },
    action_id: actionId,
    value,
    ...(style ? { style } : {}),
  });
  const buttons =
    c.status === 'open'
      ? [
          button('End chat', HEADER_ACTIONS.end, 'danger'),
          button('Ask for e-mail', HEADER_ACTIONS.askEmail),
          button('Request screenshot', HEADER_ACTIONS.screenshot),
          button('Saved replies', HEADER_ACTIONS.savedReplies),
          button('Visitor info', HEADER_ACTIONS.visitorInfo),
          button('Send transcript', HEADER_ACTIONS.sendTranscript),
        ]
      : [button('Visitor info', HEADER_ACTIONS.visitorInfo), button('Send transcript', HEADER_ACTIONS.sendTranscript)];
  blocks.push({ type: 'actions', block_id: `conversation_${value}`, elements: buttons });
  return { text, blocks };
}

/** A small grey line in a thread (notes, "not delivered"). */
export function contextLine(text: string): { text: string; blocks: Block[] } {
  return { text, blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }] };
}

/** One of Parley's own thread posts: a note is a context line; a reminder or saved reply a section, its footer under it. */
export function threadPostMessage(post: Pick<ThreadPost, 'text' | 'look' | 'footer'>): { text: string; blocks: Block[] } {
  if (post.look === 'note') return contextLine(post.text);
  const blocks: Block[] = [{ type: 'section', text: { type: 'mrkdwn', text: post.text || ' ' } }];
  if (post.footer) blocks.push(...contextLine(post.footer).blocks);
  return { text: post.text, blocks };
}
