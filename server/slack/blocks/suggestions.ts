/**
 * Block Kit of suggestions: the "Suggested" post under a new conversation's header (articles, saved replies, past
 * answers, each with Send; past answers also with Edit), the answer to `/parley article N words` and the modal that
 * edits a past answer before it is sent. Every text an owner or a visitor wrote goes through escapeMrkdwn (or
 * mrkdwnOfHtml for a snippet's HTML), cut to Slack's limits before it is escaped.
 */
import type { types } from '@slack/bolt';
import { mrkdwnOfHtml } from '../../ownerText';
import { escapeMrkdwn } from '../../shared/mrkdwn';
import { MESSAGE_CHARS } from '../../shared/widget-constants';

type KnownBlock = types.KnownBlock;
type ModalView = types.ModalView;

/** Action ids of the suggestions' buttons (value: `<conversation id>:<article, saved reply or message id>`). */
export const SUGGESTION_ACTIONS = {
  sendArticle: 'suggestion_send_article',
  sendReply: 'suggestion_send_reply',
  sendPast: 'suggestion_send_past',
  editPast: 'suggestion_edit_past',
} as const;

/** The modal editing a past answer (private_metadata: `<conversation id>:<message id>`) and its one field. */
export const PAST_ANSWER_VIEW = 'parley_past_answer';
export const PAST_ANSWER_FIELD = 'reply';

export type SuggestedArticle = { id: string; title: string /** HTML, matched words in <mark>. */; snippet: string; url: string };
export type SuggestedReply = { id: string; label: string /** The decoded response, plain. */; text: string };
export type SuggestedPast = { messageId: string; number: number; question: string; text: string };
export type Suggestions = { articles: SuggestedArticle[]; replies: SuggestedReply[]; past: SuggestedPast[] };

/** Slack's limits: a section's text 3000 characters, a button's value 2000, a message 50 blocks. */
const PREVIEW_CHARS = 280;
const TITLE_CHARS = 150;

/** Plain text on one line, at most `max` characters (cut before escaping, so no entity is broken). */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

const section = (text: string, blockId: string, accessory?: Record<string, unknown>): KnownBlock =>
  ({ type: 'section', block_id: blockId, text: { type: 'mrkdwn', text }, ...(accessory ? { accessory } : {}) }) as KnownBlock;
const button = (text: string, actionId: string, value: string, style?: 'primary') => ({
  type: 'button' as const,
  text: { type: 'plain_text' as const, text },
  action_id: actionId,
  value,
  ...(style ? { style } : {}),
});
const context = (text: string): KnownBlock => ({ type: 'context', elements: [{ type: 'mrkdwn', text }] });

/** An article's line: its title linked to its public page, and its snippet. */
function articleText(article: SuggestedArticle): string {
  const title = escapeMrkdwn(oneLine(article.title, TITLE_CHARS));
  const snippet = oneLine(mrkdwnOfHtml(article.snippet), PREVIEW_CHARS + 200);
  return `:page_facing_up: *<${escapeMrkdwn(article.url)}|${title}>*${snippet ? `\n${snippet}` : ''}`;
}

function articleBlock(conversationId: string, article: SuggestedArticle): KnownBlock {
  return section(
    articleText(article),
    `article_${article.id}`,
    button('Send', SUGGESTION_ACTIONS.sendArticle, `${conversationId}:${article.id}`),
  );
}

/** The "Suggested" post of a new conversation's thread; null when there is nothing to suggest. */
export function suggestedMessage(conversationId: string, found: Suggestions): { text: string; blocks: KnownBlock[] } | null {
  const { articles, replies, past } = found;
  if (articles.length + replies.length + past.length === 0) return null;
  const counted = [
    [articles.length, 'article'],
    [replies.length, 'saved reply'],
    [past.length, 'past answer'],
  ] as const;
  const summary = counted
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${n === 1 ? what : what === 'saved reply' ? 'saved replies' : `${what}s`}`)
    .join(', ');
  const blocks: KnownBlock[] = [section(`*Suggested* for this question: ${summary}. *Send* sends it to the visitor as you.`, 'suggested')];
  for (const article of articles) blocks.push(articleBlock(conversationId, article));
  for (const reply of replies) {
    blocks.push(
      section(
        `:speech_balloon: *Saved reply* “${escapeMrkdwn(oneLine(reply.label, TITLE_CHARS))}”\n${escapeMrkdwn(oneLine(reply.text, PREVIEW_CHARS))}`,
        `reply_${reply.id}`,
        button('Send', SUGGESTION_ACTIONS.sendReply, `${conversationId}:${reply.id}`),
      ),
    );
  }
  for (const answer of past) {
    const value = `${conversationId}:${answer.messageId}`;
    blocks.push(
      section(
        `:leftwards_arrow_with_hook: *Answered in #${answer.number}* to “${escapeMrkdwn(oneLine(answer.question, TITLE_CHARS))}”\n>${escapeMrkdwn(oneLine(answer.text, PREVIEW_CHARS))}`,
        `past_text_${answer.messageId}`,
      ),
      {
        type: 'actions',
        block_id: `past_${answer.messageId}`,
        elements: [button('Send', SUGGESTION_ACTIONS.sendPast, value), button('Edit', SUGGESTION_ACTIONS.editPast, value)],
      },
    );
  }
  blocks.push(context('Only people in this channel see this; nothing is sent until someone presses Send.'));
  return { text: `Suggested for this question: ${summary}`, blocks };
}

/** The answer to `/parley article N words`: the hits, each with Send while the conversation is open. */
export function articleSearchReply(
  conversation: { id: string; number: number; open: boolean },
  words: string,
  hits: SuggestedArticle[],
): { text: string; blocks: KnownBlock[] } {
  const text = `Help-center articles for “${escapeMrkdwn(oneLine(words, 100))}” (conversation #${conversation.number})`;
  const blocks: KnownBlock[] = [
    section(`*${text}*${conversation.open ? '' : ' (this conversation has ended: nothing can be sent to it)'}`, 'article_search'),
  ];
  for (const hit of hits) {
    blocks.push(conversation.open ? articleBlock(conversation.id, hit) : section(articleText(hit), `article_${hit.id}`));
  }
  return { text, blocks };
}

/** Edit a past answer, then send it as yourself. */
export function editPastAnswerModal(input: { conversationId: string; messageId: string; number: number; text: string }): ModalView {
  return {
    type: 'modal',
    callback_id: PAST_ANSWER_VIEW,
    title: { type: 'plain_text', text: 'Edit and send' },
    submit: { type: 'plain_text', text: 'Send' },
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: `${input.conversationId}:${input.messageId}`,
    blocks: [
      context(`The answer given in conversation #${input.number}. What you send reaches the visitor as you.`),
      {
        type: 'input',
        block_id: PAST_ANSWER_FIELD,
        label: { type: 'plain_text', text: 'Reply' },
        element: {
          type: 'plain_text_input',
          action_id: PAST_ANSWER_FIELD,
          multiline: true,
          max_length: MESSAGE_CHARS,
          initial_value: input.text.slice(0, MESSAGE_CHARS),
        },
      },
    ],
  };
}
