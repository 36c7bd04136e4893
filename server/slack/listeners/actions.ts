/**
 * Buttons: the conversation header's (End chat, Ask for e-mail, Request screenshot, Saved replies, Visitor info,
 * Send transcript),
 * the Send buttons of `/parley replies N`, and the App Home's. Each is acknowledged first; buttons that need a
 * choice or a confirmation open a modal with the trigger id.
 */
import type { App, BlockAction, ButtonAction, Logger } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { decodeResponse } from '../../commands/savedReplies';
import type { Models } from '../../models';
import type { ChatEndpointDocument } from '../../models/ChatEndpoint';
import type { ConversationDocument } from '../../models/Conversation';
import { HOME_ACTIONS } from '../blocks/home';
import { snoozeModal } from '../blocks/inbox';
import {
  askEmailModal,
  type ConversationAction,
  endChatModal,
  type ModalView,
  operatingHoursModal,
  type PickItem,
  questionGroupModal,
  savedReplyModal,
  screenshotModal,
  sendTranscriptModal,
  visitorInfoModal,
} from '../blocks/modals';
import { HEADER_ACTIONS } from '../blocks/thread';
import { askForScreenshot, sendReply, visitorName } from '../conversationActions';
import type { SlackDeps } from '../deps';
import { operatorOf } from '../operators';
import { conversationForMember, widgetForMember } from './access';
import { failureText } from './failures';
import { changeSettings, SAVED_REPLY_SEND_ACTION, toggleManualMode } from './parley';

type Deps = SlackDeps;

export async function savedReplyItems(models: Models, ce: ChatEndpointDocument): Promise<PickItem[]> {
  const replies = await models.SavedReply.find({ ceId: ce._id }).sort({ label: 1 }).limit(100);
  return replies.map((r) => ({ value: r.id as string, label: r.label, detail: decodeResponse(r.response).replace(/\s+/g, ' ') }));
}

export async function questionGroupItems(models: Models, ce: ChatEndpointDocument): Promise<PickItem[]> {
  const groups = await models.QuestionGroup.find({ accountId: ce.accountId }).sort({ label: 1 }).limit(100);
  return groups.map((g) => ({ value: g.uid, label: g.label, detail: g.shortcut ? `shortcut: ${g.shortcut}` : '' }));
}

/** The modal of a thread action, built from the conversation's current state. */
export async function actionModal(
  deps: Deps,
  action: ConversationAction,
  c: ConversationDocument,
  ce: ChatEndpointDocument,
): Promise<ModalView> {
  const settingsUrl = (tab: string) => `${deps.config.publicUrl}/app/#/settings/${ce.id}/${tab}`;
  const visitor = await deps.models.Visitor.findById(c.visitorId);
  switch (action) {
    case 'end':
      return endChatModal(c, await visitorName(deps.models, c));
    case 'askEmail':
      return askEmailModal(c, visitor);
    case 'screenshot':
      return screenshotModal(c);
    case 'savedReply':
      return savedReplyModal(c, await savedReplyItems(deps.models, ce), settingsUrl('saved-replies'));
    case 'questionGroup':
      return questionGroupModal(c, await questionGroupItems(deps.models, ce), settingsUrl('question-groups'));
    case 'visitorInfo':
      return visitorInfoModal(c, visitor);
    case 'sendTranscript':
      return sendTranscriptModal(c, visitor, ce);
    case 'snooze':
      return snoozeModal(c);
  }
}

const HEADER_MODALS: [string, ConversationAction][] = [
  [HEADER_ACTIONS.end, 'end'],
  [HEADER_ACTIONS.askEmail, 'askEmail'],
  [HEADER_ACTIONS.savedReplies, 'savedReply'],
  [HEADER_ACTIONS.visitorInfo, 'visitorInfo'],
  [HEADER_ACTIONS.sendTranscript, 'sendTranscript'],
];

/** Tells the person why an action did not happen: on the response_url when there is one, else in a small modal. */
export async function refuse(
  client: WebClient,
  body: BlockAction,
  respond: (m: { text: string; response_type: 'ephemeral'; replace_original: false }) => Promise<unknown>,
  text: string,
  logger: Logger,
): Promise<void> {
  try {
    if (body.response_url) {
      await respond({ text, response_type: 'ephemeral', replace_original: false });
      return;
    }
    await client.views.open({
      trigger_id: body.trigger_id,
      view: {
        type: 'modal',
        title: { type: 'plain_text', text: 'Parley' },
        close: { type: 'plain_text', text: 'Close' },
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
      },
    });
  } catch (error) {
    logger.warn('could not tell the person why an action failed', error instanceof Error ? error.message : error);
  }
}

export function registerActionListeners(app: App, deps: Deps): void {
  for (const [actionId, action] of HEADER_MODALS) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action: button, client, respond, logger }) => {
      await ack();
      const who = { teamId: body.team?.id ?? '', userId: body.user.id };
      try {
        const { c, ce } = await conversationForMember(deps.models, client, who, button.value ?? '');
        const kind = c.status === 'open' || action === 'visitorInfo' || action === 'sendTranscript' ? action : null;
        if (!kind) {
          await refuse(client, body, respond, `Conversation #${c.number} has already ended.`, logger);
          return;
        }
        await client.views.open({ trigger_id: body.trigger_id, view: await actionModal(deps, kind, c, ce) });
      } catch (error) {
        await refuse(client, body, respond, failureText(error, logger, `button ${actionId}`), logger);
      }
    });
  }

  // Asked at once, no modal: the request is harmless (the visitor decides), and the thread gets a line saying who asked.
  app.action<BlockAction<ButtonAction>>(HEADER_ACTIONS.screenshot, async ({ ack, body, action, client, respond, logger }) => {
    await ack();
    const who = { teamId: body.team?.id ?? '', userId: body.user.id };
    try {
      const { c } = await conversationForMember(deps.models, client, who, action.value ?? '');
      await askForScreenshot(deps.relay, c, await operatorOf(client, who.userId));
    } catch (error) {
      await refuse(client, body, respond, failureText(error, logger, `button ${HEADER_ACTIONS.screenshot}`), logger);
    }
  });

  app.action<BlockAction<ButtonAction>>(SAVED_REPLY_SEND_ACTION, async ({ ack, body, action, client, respond, logger }) => {
    await ack();
    const who = { teamId: body.team?.id ?? '', userId: body.user.id };
    const [conversationId = '', replyId = ''] = (action.value ?? '').split(':');
    try {
      const { c } = await conversationForMember(deps.models, client, who, conversationId);
      const text = await sendReply(deps.relay, c, await operatorOf(client, who.userId), { replyId });
      deps.homeTabs.teamChanged(who.teamId);
      await respond({ text, response_type: 'ephemeral', replace_original: true });
    } catch (error) {
      await refuse(client, body, respond, failureText(error, logger, 'saved reply button'), logger);
    }
  });

  const homeButton = (actionId: string, run: (ce: ChatEndpointDocument, client: WebClient, body: BlockAction) => Promise<void>) => {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client, respond, logger }) => {
      await ack();
      const who = { teamId: body.team?.id ?? '', userId: body.user.id };
      try {
        await run(await widgetForMember(deps.models, client, who, action.value ?? ''), client, body);
      } catch (error) {
        await refuse(client, body, respond, failureText(error, logger, `button ${actionId}`), logger);
      }
      await deps.homeTabs.refreshNow(who.teamId, who.userId);
    });
  };
  homeButton(HOME_ACTIONS.goOnline, async (ce, _client, body) => {
    await changeSettings(deps, ce, body.user.id, { off: false }, 'turned the website chat *on* from the Parley App Home.');
  });
  homeButton(HOME_ACTIONS.goOffline, async (ce, _client, body) => {
    await changeSettings(
      deps,
      ce,
      body.user.id,
      { off: true },
      'turned the website chat *off* from the Parley App Home: visitors see the offline form.',
    );
  });
  homeButton(HOME_ACTIONS.manualMode, async (ce, _client, body) => {
    await toggleManualMode(deps, ce, body.user.id);
  });
  homeButton(HOME_ACTIONS.operatingHours, async (ce, client, body) => {
    await client.views.open({ trigger_id: body.trigger_id, view: operatingHoursModal(ce) });
  });
  // A link button: Slack opens the console; Parley only has to acknowledge the click.
  app.action(HOME_ACTIONS.openSettings, async ({ ack }) => {
    await ack();
  });
}
