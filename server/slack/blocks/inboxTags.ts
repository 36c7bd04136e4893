/**
 * The header's tags and response target (issue #31): the conversation's tags with a multi-select of the widget's
 * list to change them, and while a target runs, when the answer is due (or that the target was missed). Built from
 * the stored state, like the rest of the header; the header is refreshed when the tags change and when a target
 * is missed, so what it says holds until then.
 */
import type { ChatEndpoint } from '../../models/ChatEndpoint';
import type { Conversation } from '../../models/Conversation';
import { escapeMrkdwn } from '../../shared/mrkdwn';

/** The header's tag picker (value: the conversation id, in its block id). */
export const TAG_SELECT_ACTION = 'conversation_tags';
const TAG_BLOCK_PREFIX = 'tags_';

type Block = Record<string, unknown>;

/** The conversation id a tag picker's block id names. */
export function conversationOfTagBlock(blockId: string): string {
  return blockId.startsWith(TAG_BLOCK_PREFIX) ? blockId.slice(TAG_BLOCK_PREFIX.length) : '';
}

const option = (tag: string) => ({ text: { type: 'plain_text', text: tag }, value: tag });

/** "at 14:32" in each reader's own time zone (Slack's date formatting), the UTC time for clients that cannot. */
export function slackTime(at: Date): string {
  const fallback = `${at.toISOString().slice(11, 16)} UTC`;
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} at {time}|${fallback}>`;
}

/** The line of a running or missed response target, or '' when none runs. */
export function targetLine(c: Pick<Conversation, 'status' | 'targetDueAt' | 'targetKind' | 'targetRemindedAt'>, now = new Date()): string {
  if (c.status !== 'open' || !c.targetDueAt || !c.targetKind) return '';
  const which = c.targetKind === 'first' ? 'First response' : 'Next response';
  if (c.targetDueAt.getTime() <= now.getTime() || c.targetRemindedAt) {
    return `:rotating_light: ${which} target missed: the answer was due ${slackTime(c.targetDueAt)}`;
  }
  const left = Math.ceil((c.targetDueAt.getTime() - now.getTime()) / 60_000);
  return `:stopwatch: ${which} due ${slackTime(c.targetDueAt)} (${left} min left when this was posted; only operating hours count)`;
}

/** The header's blocks of tags and target: nothing for a widget without tags on a conversation without any. */
export function tagTargetBlocks(
  c: Pick<Conversation, 'status' | 'tags' | 'targetDueAt' | 'targetKind' | 'targetRemindedAt'> & { _id: unknown },
  ce: Pick<ChatEndpoint, 'tags'>,
  now = new Date(),
): Block[] {
  const blocks: Block[] = [];
  const tags = c.tags ?? [];
  const list = ce.tags ?? [];
  if (tags.length > 0 || list.length > 0) {
    const text = tags.length > 0 ? `*Tags:* ${tags.map((t) => `\`${escapeMrkdwn(t)}\``).join(' ')}` : '*Tags:* none';
    // Tags no longer in the widget's list stay selectable, so the picker keeps them until someone removes them.
    const choices = [...list, ...tags.filter((t) => !list.includes(t))].slice(0, 100);
    blocks.push({
      type: 'section',
      block_id: `${TAG_BLOCK_PREFIX}${String(c._id)}`,
      text: { type: 'mrkdwn', text },
      ...(choices.length > 0
        ? {
            accessory: {
              type: 'multi_static_select',
              action_id: TAG_SELECT_ACTION,
              placeholder: { type: 'plain_text', text: 'Tags' },
              options: choices.map(option),
              ...(tags.length > 0 ? { initial_options: tags.filter((t) => choices.includes(t)).map(option) } : {}),
            },
          }
        : {}),
    });
  }
  const line = targetLine(c, now);
  if (line) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: line }] });
  return blocks;
}
