/**
 * The `mail.unseen` outbox job: the mail of the operator replies a visitor did not see (queued by the unseen-replies
 * check, commands/unseenReplies.ts). The job claims the replies it mails on the conversation first (mailedSeq, with
 * its own id in mailJobId), so a second job for the same wait finds nothing left and sends nothing, and a rerun of
 * this job after a failed send mails the same replies again, never others. After the send the thread gets
 * "Sent by e-mail to j•••@example.com".
 */
import type { Types } from 'mongoose';
import { queueThreadNote } from '../commands/threadPosts';
import { OPERATOR_LINES, sentByEmailNote } from '../commands/unseenReplies';
import { fileUrl, type StoredMessage } from '../conversations/history';
import { RESUME_TOKEN_DAYS, replyAddress, resumeToken, unsubscribeToken } from '../conversations/mailTokens';
import { withoutMarkers } from '../conversations/transcript';
import { mailSender, visitorMailLanguage } from '../conversations/widgetLanguage';
import { mailAvatarUrl } from '../mail/avatars';
import { type MailLine, unseenRepliesMail } from '../mail/templates';
import type { Conversation } from '../models/Conversation';
import type { Visitor } from '../models/Visitor';
import type { RelayContext, RelayJob, RelayJobHandler } from './context';

/** Lines before the first mailed reply shown for context. */
const CONTEXT_LINES = 6;

/** The fragment of the page URL that makes the widget open on the visitor's conversation (web/widget/loader.ts). */
export const OPEN_FRAGMENT = 'parley-open';

type Claimable = Pick<Conversation, 'mailedSeq' | 'mailJobId' | 'mailedFromSeq' | 'lastSeq'> & { _id: Types.ObjectId };

/** The seq range (from, to] this job mails, claimed once; null when an earlier job mailed everything. */
async function claimRange(ctx: RelayContext, job: RelayJob<'mail.unseen'>): Promise<{ from: number; to: number; sent: boolean } | null> {
  const id = job.payload.conversationId;
  const jobId = String(job._id);
  for (let attempt = 0; attempt < 5; attempt++) {
    const c = await ctx.models.Conversation.findById(id, { mailedSeq: 1, mailJobId: 1, mailedFromSeq: 1, lastSeq: 1 })
      .lean<Claimable>()
      .exec();
    if (!c) return null;
    if (c.mailJobId === jobId || c.mailJobId === `${jobId}:sent`) {
      return { from: c.mailedFromSeq, to: c.mailedSeq, sent: c.mailJobId !== jobId };
    }
    // Up to the conversation's lastSeq when its wait came due.
    const to = Math.min(c.lastSeq, job.payload.upToSeq ?? Number.POSITIVE_INFINITY);
    if (to <= c.mailedSeq) return null;
    const claimed = await ctx.models.Conversation.updateOne(
      { _id: c._id, mailedSeq: c.mailedSeq, mailJobId: c.mailJobId },
      { $set: { mailedFromSeq: c.mailedSeq, mailedSeq: to, mailJobId: jobId } },
    );
    if (claimed.modifiedCount === 1) return { from: c.mailedSeq, to, sent: false };
  }
  throw new Error(`conversation ${id}: the mail's replies could not be claimed`);
}

export const sendUnseenReplies: RelayJobHandler<'mail.unseen'> = async (ctx, job) => {
  const range = await claimRange(ctx, job);
  if (!range) return;
  const id = job.payload.conversationId;
  const c = await ctx.models.Conversation.findById(id).lean<Conversation & { _id: Types.ObjectId }>().exec();
  if (!c) return;
  const visitor = await ctx.models.Visitor.findById(c.visitorId).lean<Visitor & { _id: Types.ObjectId }>().exec();
  if (!range.sent) {
    // Seen meanwhile, or unsubscribed: nothing goes out (and nothing is noted).
    const replies = await ctx.models.Message.find({
      conversationId: c._id,
      ...OPERATOR_LINES,
      seq: { $gt: Math.max(range.from, c.seenSeq), $lte: range.to },
    })
      .sort({ seq: 1 })
      .lean<StoredMessage[]>()
      .exec();
    if (replies.length === 0 || !visitor?.email || visitor.emailUnsubscribedAt) return;
    const ce = await ctx.widgets.get(c.ceId);
    if (!ce) return;
    const earlier = await ctx.models.Message.find({ conversationId: c._id, kind: 'msg', deleted: false, seq: { $lt: replies[0].seq } })
      .sort({ seq: -1 })
      .limit(CONTEXT_LINES)
      .lean<StoredMessage[]>()
      .exec();
    // The visitor's language (the widget's, with the owner's wording for it) and the site's name and colours.
    const { language, texts } = visitorMailLanguage(ce, visitor);
    const line = (m: StoredMessage): MailLine => ({
      who: m.from === 'visitor' ? texts.browserSideAuthorLabel : m.author?.name || texts.agentLabel,
      text: m.from === 'operator' ? withoutMarkers(m.text) : m.text,
      html: m.from === 'operator' ? m.html : '',
      files: m.files.map((f) => ({ name: f.name, url: fileUrl(ctx.publicUrl, f.id) })),
    });
    const last = replies[replies.length - 1];
    const sender = mailSender(ce, texts);
    const ref = { conversationId: c._id, visitorId: c.visitorId };
    const secret = ctx.config.jwtSecret;
    await ctx.mailer.send(
      await unseenRepliesMail({
        to: visitor.email,
        sender,
        language,
        site: siteOf(c.pageUrl || visitor.currentPage) || sender.title,
        // Parley serves the picture over https (mail clients block data: images and show no Slack-private ones).
        operator: {
          name: last.author?.name || texts.agentLabel,
          avatarUrl: last.author?.avatarUrl ? mailAvatarUrl(ctx.publicUrl, String(last._id)) : '',
        },
        replies: replies.map(line),
        context: earlier.reverse().map(line),
        openUrl: openUrl(
          c.pageUrl || visitor.currentPage,
          resumeToken(secret, ref, new Date(Date.now() + RESUME_TOKEN_DAYS * 24 * 60 * 60_000)),
        ),
        unsubscribeUrl: `${ctx.publicUrl}/mail/unsubscribe/${unsubscribeToken(secret, ref)}`,
        replyTo: replyAddress(secret, ctx.config.mail.inbound.domain, ref),
      }),
    );
    // Marked before the thread's note is queued: a rerun after this point only queues the note, never mails again.
    await ctx.models.Conversation.updateOne({ _id: c._id, mailJobId: String(job._id) }, { $set: { mailJobId: `${String(job._id)}:sent` } });
    await queueThreadNote(ctx, c, sentByEmailNote(visitor.email));
    return;
  }
  if (visitor?.email) await queueThreadNote(ctx, c, sentByEmailNote(visitor.email));
};

/** The host name of the chat's page ('' when it is not an http(s) address). */
export function siteOf(page: string): string {
  try {
    const url = new URL(page);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : '';
  } catch {
    return '';
  }
}

/**
 * The chat's page with the fragment that reopens the widget on this conversation, in any browser for 7 days (the
 * resume token, conversations/mailTokens.ts); empty for a page that is not http(s).
 */
export function openUrl(page: string, resume: string): string {
  try {
    const url = new URL(page);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    url.hash = `${OPEN_FRAGMENT}=${resume}`;
    return url.toString();
  } catch {
    return '';
  }
}
