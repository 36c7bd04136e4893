/**
 * A message left through the widget's offline form: stored, then delivered as the widget says — an e-mail to
 * the widget's owner (sendOfflineMessagesToEmail, with the visitor's details when includeVisitorInfoInEmails),
 * a post in the linked Slack channel (sendOfflineMessagesToSlack), and a JSON POST to offlineMessageWebhookURL.
 * Every delivery goes through the outbox, so an unreachable Slack or webhook is retried, not lost.
 */

import { trackEvent } from '../conversations/analytics';
import type { ConversationContext } from '../conversations/context';
import { findVisitorByToken } from '../conversations/visitors';
import { fireWebhook } from '../conversations/webhooks';
import { offlineMessageMail } from '../mail/templates';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import { escapeMrkdwn } from '../shared/mrkdwn';
import type { OfflineMessage } from '../shared/widget-protocol';

export async function sendOfflineMessage(
  ctx: Pick<ConversationContext, 'models' | 'outbox' | 'analytics'>,
  ce: ChatEndpointDocument,
  input: OfflineMessage,
  meta: { country: string },
): Promise<void> {
  const { models } = ctx;
  const visitor = input.visitorToken ? await findVisitorByToken(models.Visitor, input.visitorToken, ce._id) : null;
  // The address the visitor gave is where replies they do not see are mailed (unseenReplies.ts), unless they gave one before.
  if (visitor && !visitor.email) await models.Visitor.updateOne({ _id: visitor._id, email: '' }, { $set: { email: input.email } });
  const pageUrl = input.page?.url ?? '';
  const stored = await models.OfflineMessage.create({
    accountId: ce.accountId,
    ceId: ce._id,
    visitorId: visitor?._id ?? null,
    name: input.name ?? '',
    email: input.email,
    message: input.message,
    pageUrl,
    country: ce.collectVisitorMetaData ? meta.country : '',
  });
  const key = `offline:${String(stored._id)}`;
  const who = input.name ? `${input.name} <${input.email}>` : input.email;

  if (ce.sendOfflineMessagesToEmail) {
    const owner = await models.User.findById(ce.userId);
    if (owner?.email) {
      const details: [string, string][] = ce.includeVisitorInfoInEmails
        ? (
            [
              ['Name', input.name ?? ''],
              ['E-mail', input.email],
              ['Page', pageUrl],
              ['Country', stored.country],
            ] as [string, string][]
          ).filter(([, v]) => v)
        : [['E-mail', input.email]];
      const mail = await offlineMessageMail({
        to: owner.email,
        subject: ce.offlineEmailSubject || 'New message from your website',
        widget: { title: ce.offlineTitle || ce.onlineTitle || ce.RoomName, titleColor: ce.titleColor, titleFontColor: ce.titleFontColor },
        message: input.message,
        details,
        visitorEmail: input.email,
      });
      await ctx.outbox.enqueue('mail', `${key}:mail`, { ...mail, replyToAddress: input.email, replyToName: input.name ?? '' });
    }
  }
  if (ce.sendOfflineMessagesToSlack && ce.Step === 3 && ce.RoomId && !ce.installationRevoked) {
    const page = pageUrl ? `\nPage: ${pageUrl}` : '';
    await ctx.outbox.enqueue(
      'slack.channelPost',
      `${key}:slack`,
      {
        teamId: ce.slackTeamId,
        channel: ce.RoomId,
        text: `:envelope: Offline message from ${escapeMrkdwn(who)}:\n>${escapeMrkdwn(input.message).replace(/\n/g, '\n>')}${escapeMrkdwn(page)}`,
      },
      { channel: ce.RoomId },
    );
  }
  await fireWebhook(ctx, {
    accountId: ce.accountId,
    key: `${key}:webhook`,
    event: 'offline_message',
    url: ce.offlineMessageWebhookURL,
    body: {
      event: 'offline_message',
      id: String(stored._id),
      widgetId: ce.Uuid,
      name: input.name ?? '',
      email: input.email,
      message: input.message,
      pageUrl,
      createdAt: stored.createdAt.toISOString(),
    },
  });
  await trackEvent(ctx, {
    ce,
    event: 'Offline Message Left',
    visitorId: visitor?._id ?? null,
    fallbackId: `offline-${String(stored._id)}`,
    properties: { offlineMessageId: String(stored._id), pageUrl },
    at: stored.createdAt,
  });
}
