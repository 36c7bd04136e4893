/**
 * Ends a conversation, whoever ends it (the visitor, an operator's button or command, inactivity): stores the
 * end, tells the visitor's widgets (`ended`), updates the Slack header, and runs the post-chat actions the
 * widget has configured (transcript e-mail to transcriptRecipient with emailOnArchive, archive webhook with
 * webhookOnArchive). Ending an ended conversation does nothing.
 */
import type { Types } from 'mongoose';
import { conversationProperties, trackEvent } from '../conversations/analytics';
import type { ConversationContext } from '../conversations/context';
import { serialised } from '../conversations/history';
import { eventOf, recordInboxEvent } from '../conversations/inboxEvents';
import { findOpenConversation, headerUpdate, record } from '../conversations/record';
import { conversationPayload, transcriptMail } from '../conversations/transcript';
import { visitorLabel } from '../conversations/visitors';
import { fireWebhook } from '../conversations/webhooks';
import type { EndedBy } from '../models/Conversation';
import { WAIT_ENDED } from './responseTargets';

export async function endConversation(
  ctx: ConversationContext,
  conversationId: Types.ObjectId | string,
  by: EndedBy,
  opts: {
    operatorSlackUserId?: string;
    /** End without the post-chat actions and mark it discarded. */
    discard?: boolean;
    /** End only while its inactivity due time is still this one (the visitor did not write since it was read). */
    dueAt?: Date;
  } = {},
): Promise<{ ended: boolean }> {
  return serialised(String(conversationId), async () => {
    const conversation = await ctx.models.Conversation.findOneAndUpdate(
      { _id: conversationId, status: 'open', ...(opts.dueAt ? { inactiveAt: opts.dueAt } : {}) },
      {
        $set: {
          status: 'ended',
          endedAt: new Date(),
          endedBy: by,
          // Nothing is due any more for an ended conversation.
          inactiveAt: null,
          noAnswerAt: null,
          inboxState: 'ended',
          snoozedUntil: null,
          // The visitor no longer waits: no response target runs for an ended conversation.
          ...WAIT_ENDED,
          ...(opts.discard ? { discarded: true } : {}),
        },
      },
      { returnDocument: 'after' },
    );
    if (!conversation) return { ended: false };
    await record(ctx, conversation, { kind: 'ended', from: 'system', endedBy: by, slackUserId: opts.operatorSlackUserId ?? '' });
    await headerUpdate(ctx, conversation);
    // Reports → Team counts the end for whoever had the conversation ('' when nobody did).
    await recordInboxEvent(
      ctx.models,
      eventOf(conversation, {
        kind: 'ended',
        at: conversation.endedAt ?? new Date(),
        operatorId: conversation.assigneeId ?? '',
        ...(opts.operatorSlackUserId ? { byId: opts.operatorSlackUserId } : {}),
      }),
    );
    const ce = opts.discard ? null : await ctx.models.ChatEndpoint.findById(conversation.ceId);
    if (!ce) return { ended: true };
    if (ce.emailOnArchive && ce.transcriptRecipient) {
      const visitor = await ctx.models.Visitor.findById(conversation.visitorId);
      const mail = await transcriptMail(ctx.models, conversation, ce.transcriptRecipient, {
        ce,
        visitorName: visitor ? visitorLabel(visitor, conversation.number) : 'Visitor',
        reader: 'owner',
      });
      await ctx.outbox.enqueue('mail', `mail:${String(conversation._id)}`, mail);
    }
    await fireWebhook(ctx, {
      accountId: conversation.accountId,
      key: `webhook:${String(conversation._id)}`,
      event: 'conversation.archived',
      url: ce.webhookOnArchive ? ce.webhookUrl : '',
      body: async () => ({ event: 'conversation.archived', conversation: await conversationPayload(ctx.models, conversation) }),
    });
    await trackEvent(ctx, {
      ce,
      event: 'Chat Ended',
      visitorId: conversation.visitorId,
      properties: {
        ...conversationProperties(conversation),
        endedBy: by,
        answered: conversation.firstResponseAt !== null,
        durationSeconds: Math.round(((conversation.endedAt?.getTime() ?? Date.now()) - conversation.startedAt.getTime()) / 1000),
      },
      at: conversation.endedAt ?? undefined,
    });
    return { ended: true };
  });
}

/** The visitor ends their open conversation from the widget (nothing happens when none is open). */
export async function endVisitorConversation(ctx: ConversationContext, visitorId: Types.ObjectId): Promise<void> {
  const open = await findOpenConversation(ctx, visitorId);
  if (open) await endConversation(ctx, open._id, 'visitor');
}
