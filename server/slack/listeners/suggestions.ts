/**
 * The suggestions' buttons (the thread's "Suggested" post and `/parley article`): Send an article, a saved reply or
 * a past answer to the visitor as the person who pressed it; Edit a past answer in a modal, then send it. Each is
 * acknowledged first; refusals (the conversation ended, the person is not in the channel, the article or the past
 * answer is gone) are told to that person alone, and nothing is sent.
 */
import type { App, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import { pastAnswerSource, sendArticle, sendPastAnswer, sendSuggestedReply } from '../../commands/sendSuggestion';
import type { ConversationDocument } from '../../models/Conversation';
import { escapeMrkdwn } from '../../shared/mrkdwn';
import { MESSAGE_CHARS } from '../../shared/widget-constants';
import { editPastAnswerModal, PAST_ANSWER_FIELD, PAST_ANSWER_VIEW, SUGGESTION_ACTIONS } from '../blocks/suggestions';
import { ActionRefused } from '../conversationActions';
import type { SlackDeps } from '../deps';
import { type Operator, operatorOf } from '../operators';
import { slackToHtml } from '../slackText';
import { conversationForMember } from './access';
import { refuse } from './actions';
import { failureText } from './failures';
import { tell } from './views';

type Send = (c: ConversationDocument, operator: Operator, id: string) => Promise<string>;

/** `<conversation id>:<id>` of a button or a modal, whatever was sent in its place. */
function pair(value: unknown): [string, string] {
  const [conversationId = '', id = ''] = (typeof value === 'string' ? value : '').split(':');
  return [conversationId, id];
}

export function registerSuggestionListeners(app: App, deps: SlackDeps): void {
  const sendButton = (actionId: string, send: Send) => {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client, respond, logger }) => {
      await ack();
      const who = { teamId: body.team?.id ?? '', userId: body.user.id };
      const [conversationId, id] = pair(action.value);
      // The answer to /parley article (seen by this person alone) becomes the outcome; the thread's post stays.
      const ephemeral = (body.container as { is_ephemeral?: unknown } | undefined)?.is_ephemeral === true;
      try {
        const { c } = await conversationForMember(deps.models, client, who, conversationId);
        if (c.status !== 'open') throw new ActionRefused(`Conversation #${c.number} has already ended; nothing was sent.`);
        const text = await send(c, await operatorOf(client, who.userId), id);
        deps.homeTabs.teamChanged(who.teamId);
        await respond({ text, response_type: 'ephemeral', replace_original: ephemeral });
      } catch (error) {
        await refuse(client, body, respond, failureText(error, logger, `button ${actionId}`), logger);
      }
    });
  };

  sendButton(SUGGESTION_ACTIONS.sendArticle, async (c, operator, articleId) => {
    const { article, number } = await sendArticle(deps.relay, { conversationId: String(c._id), articleId, operator });
    return `Article “${escapeMrkdwn(article.title)}” sent in conversation #${number}.`;
  });
  sendButton(SUGGESTION_ACTIONS.sendReply, async (c, operator, replyId) => {
    const { number } = await sendSuggestedReply(deps.relay, { conversationId: String(c._id), replyId, operator });
    return `Saved reply sent in conversation #${number}.`;
  });
  sendButton(SUGGESTION_ACTIONS.sendPast, async (c, operator, messageId) => {
    const { number } = await sendPastAnswer(deps.relay, { conversationId: String(c._id), messageId, operator });
    return `Suggested reply sent in conversation #${number}.`;
  });

  app.action<BlockAction<ButtonAction>>(SUGGESTION_ACTIONS.editPast, async ({ ack, body, action, client, respond, logger }) => {
    await ack();
    const who = { teamId: body.team?.id ?? '', userId: body.user.id };
    const [conversationId, messageId] = pair(action.value);
    try {
      const { c } = await conversationForMember(deps.models, client, who, conversationId);
      if (c.status !== 'open') throw new ActionRefused(`Conversation #${c.number} has already ended; nothing was sent.`);
      const { source, past } = await pastAnswerSource(deps.models, c, messageId);
      await client.views.open({
        trigger_id: body.trigger_id,
        view: editPastAnswerModal({ conversationId: String(c._id), messageId, number: past.number, text: source.text }),
      });
    } catch (error) {
      await refuse(client, body, respond, failureText(error, logger, 'edit past answer button'), logger);
    }
  });

  // Checked before the acknowledgement, so a problem shows under the field; sent after it.
  app.view<ViewSubmitAction>(PAST_ANSWER_VIEW, async ({ ack, body, view, client, logger }) => {
    const who = { teamId: body.team?.id ?? '', userId: body.user.id };
    const [conversationId, messageId] = pair(view.private_metadata);
    const raw = view.state?.values?.[PAST_ANSWER_FIELD]?.[PAST_ANSWER_FIELD]?.value;
    const text = typeof raw === 'string' ? raw.trim() : '';
    let c: ConversationDocument;
    try {
      if (!text) throw new ActionRefused('Write the reply to send.');
      if (text.length > MESSAGE_CHARS) throw new ActionRefused(`A reply is at most ${MESSAGE_CHARS} characters.`);
      ({ c } = await conversationForMember(deps.models, client, who, conversationId));
      if (c.status !== 'open') throw new ActionRefused(`Conversation #${c.number} has already ended; nothing was sent.`);
      await pastAnswerSource(deps.models, c, messageId);
    } catch (error) {
      await ack({ response_action: 'errors', errors: { [PAST_ANSWER_FIELD]: failureText(error, logger, 'past answer modal') } });
      return;
    }
    await ack();
    let outcome: string;
    try {
      const operator = await operatorOf(client, who.userId);
      // Typed like a reply in the thread: Slack's formatting (bold, links) reaches the widget as it would from there.
      const edited = { text, html: slackToHtml(escapeMrkdwn(text)) };
      const { number } = await sendPastAnswer(deps.relay, { conversationId, messageId, operator, edited });
      deps.homeTabs.teamChanged(who.teamId);
      outcome = `Your edited reply was sent in conversation #${number}.`;
    } catch (error) {
      outcome = failureText(error, logger, 'past answer modal');
    }
    await tell(client, logger, { channel: c.slackChannel, user: who.userId, threadTs: c.threadTs || undefined }, outcome);
  });
}
