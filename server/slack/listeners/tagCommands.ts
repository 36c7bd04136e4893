/**
 * Tags from Slack (issue #31): `/parley tag N billing refund` adds tags, `/parley untag N billing` removes them, and
 * the header's tag picker sets them. Only the widget's tags (Behavior → Tags in the console)
 * are taken: an unknown name changes nothing and the answer lists the widget's tags. Each change goes through
 * tagConversation (commands/), which records it, notes it in the thread and refreshes the header.
 */
import type { App, BlockAction, MultiStaticSelectAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { tagConversation } from '../../commands/tagConversation';
import { tagList, unknownTags } from '../../conversations/tags';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import { escapeMrkdwn } from '../../shared/mrkdwn';
import { normalizeTag } from '../../shared/tags';
import { conversationOfTagBlock, TAG_SELECT_ACTION } from '../blocks/inboxTags';
import { ActionRefused } from '../conversationActions';
import type { SlackDeps } from '../deps';
import { conversationForMember } from './access';
import { failureText } from './failures';

export type TagSubcommand = 'tag' | 'untag';

/** What a widget's tag list says in an answer. */
function widgetTagsText(ce: Pick<ChatEndpointDocument, 'tags' | 'id'>, publicUrl: string): string {
  const settings = `<${publicUrl}/app/#/settings/${ce.id as string}/behavior|Behavior settings in the Parley console>`;
  return ce.tags.length > 0
    ? `This widget’s tags: ${tagList(ce.tags)}. Owners change the list in the ${settings}.`
    : `This widget has no tags yet: add them in the ${settings}.`;
}

/** `/parley tag|untag N words…` in the channel of `ce`: answers what to show the person. */
export async function runTagCommand(
  deps: SlackDeps,
  ce: ChatEndpointDocument,
  input: { teamId: string; userId: string },
  sub: TagSubcommand,
  args: string[],
): Promise<{ text: string }> {
  const usage = sub === 'tag' ? '/parley tag 12 billing refund' : '/parley untag 12 billing';
  const match = /^#?(\d{1,9})$/.exec(args[0] ?? '');
  if (!match) return { text: `Give the conversation number shown in its header and the tags: \`${usage}\`.` };
  const number = Number(match[1]);
  const words = args
    .slice(1)
    .flatMap((w) => w.split(','))
    .filter((w) => w.trim() !== '');
  if (words.length === 0) return { text: `Give the tags after the number: \`${usage}\`. ${widgetTagsText(ce, deps.config.publicUrl)}` };
  const c = await deps.models.Conversation.findOne({ ceId: ce._id, number });
  if (!c) return { text: `There is no conversation #${number} in <#${ce.RoomId}>.` };
  const tags = words.map(normalizeTag);
  if (sub === 'tag') {
    const unknown = unknownTags(tags, ce.tags);
    if (unknown.length > 0) {
      const names = unknown.map((t) => `\`${escapeMrkdwn(t.slice(0, 40))}\``).join(', ');
      return {
        text: `${names} ${unknown.length === 1 ? 'is not a tag' : 'are not tags'} of this widget, so nothing changed. ${widgetTagsText(ce, deps.config.publicUrl)}`,
      };
    }
  } else {
    const absent = tags.filter((t) => !(c.tags ?? []).includes(t));
    if (absent.length === tags.length) {
      const has = (c.tags ?? []).length > 0 ? `Its tags: ${tagList(c.tags)}.` : 'It has no tags.';
      return { text: `Conversation #${number} has no tag ${tagList(absent)}, so nothing changed. ${has}` };
    }
  }
  const result = await tagConversation(deps.relay, c._id, sub === 'tag' ? { add: tags } : { remove: tags }, input.userId);
  deps.homeTabs.teamChanged(input.teamId);
  const now = result.tags.length > 0 ? `Its tags now: ${tagList(result.tags)}.` : 'It has no tags now.';
  if (result.added.length === 0 && result.removed.length === 0) return { text: `Conversation #${number} already had those tags. ${now}` };
  const hint = sub === 'tag' ? ` Remove one with \`/parley untag ${number} ${result.added[0] ?? 'tag'}\`.` : '';
  return { text: `Conversation #${number}: ${now}${hint}` };
}

/** The tags the header showed selected when the person picked (its initial options), or null when not known. */
function shownTags(body: BlockAction, blockId: string): string[] | null {
  const blocks = (body.message as { blocks?: unknown } | undefined)?.blocks;
  if (!Array.isArray(blocks)) return null;
  const block = blocks.find((b): b is { block_id: string; accessory?: { initial_options?: { value?: unknown }[] } } => {
    return typeof b === 'object' && b !== null && (b as { block_id?: unknown }).block_id === blockId;
  });
  if (!block) return null;
  return (block.accessory?.initial_options ?? []).map((o) => normalizeTag(String(o.value ?? '')));
}

/** The header's tag picker: the selected tags become the conversation's (those the widget no longer lists may stay). */
export function registerTagActions(app: App, deps: SlackDeps): void {
  app.action<BlockAction<MultiStaticSelectAction>>(TAG_SELECT_ACTION, async ({ ack, body, action, client, respond, logger }) => {
    await ack();
    const who = { teamId: body.team?.id ?? '', userId: body.user.id };
    try {
      const { c, ce } = await conversationForMember(deps.models, client as WebClient, who, conversationOfTagBlock(action.block_id));
      const picked = action.selected_options.map((o) => normalizeTag(o.value));
      // What the person changed is what they picked against what their header showed: applied to the tags as they
      // are now, so two operators picking at once both count.
      const shown = shownTags(body, action.block_id);
      const add = shown ? picked.filter((t) => !shown.includes(t)) : picked;
      const remove = shown ? shown.filter((t) => !picked.includes(t)) : [];
      // Only the widget's tags may be added; a tag the conversation has already may stay after the list dropped it.
      const unknown = unknownTags(add, [...ce.tags, ...(c.tags ?? [])]);
      if (unknown.length > 0)
        throw new ActionRefused(`${tagList(unknown)} is not a tag of this widget. ${widgetTagsText(ce, deps.config.publicUrl)}`);
      await tagConversation(deps.relay, c._id, shown ? { add, remove } : { set: picked }, who.userId);
      deps.homeTabs.teamChanged(who.teamId);
    } catch (error) {
      // Said to the person only, on the header's response_url (Slack gives one for a message's block actions).
      const text = failureText(error, logger, `tag picker ${TAG_SELECT_ACTION}`);
      await respond({ text, response_type: 'ephemeral', replace_original: false }).catch((e: unknown) => {
        logger.warn('could not tell the person why the tags did not change', e instanceof Error ? e.message : e);
      });
    }
  });
}
