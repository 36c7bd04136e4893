import { type Connection, type HydratedDocument, type Model, Schema, type Types } from 'mongoose';

export type ConversationStatus = 'open' | 'ended';
export type EndedBy = 'visitor' | 'operator' | 'inactivity';
/**
 * Thread replies whose Slack ts a conversation keeps (Conversation.slackReplyTs). Slack retries an event three times
 * within about six minutes; fifty replies in one thread within that time are far beyond a person's typing.
 */
export const SLACK_REPLIES_KEPT = 50;

/**
 * Where a conversation stands in the team's shared inbox: `open` waits for the team, `waiting` for the visitor (the
 * team's reply was the last), `snoozed` until `snoozedUntil`, `ended`. Conversations stored before the inbox have
 * no `inboxState`: read them with `inboxStateOf` (conversations/inbox.ts).
 */
export const INBOX_STATES = ['open', 'waiting', 'snoozed', 'ended'] as const;
export type InboxState = (typeof INBOX_STATES)[number];

/** One visitor conversation: one Slack thread in the widget's channel. */
export interface Conversation {
  accountId: Types.ObjectId;
  ceId: Types.ObjectId;
  /** Short per-widget number shown in the thread header (for `/parley end N`). */
  number: number;
  visitorId: Types.ObjectId;
  status: ConversationStatus;
  startedAt: Date;
  endedAt: Date | null;
  endedBy: EndedBy | null;
  /** null until an operator answers (the history report shows the zero date then). */
  firstResponseAt: Date | null;
  agentName: string;
  agentAvatarUrl: string;
  agentSlackUserId: string;
  rating: 'up' | 'down' | null;
  feedback: string;
  /** The proactive trigger that opened it, empty when the visitor started it. */
  triggerUid: string;
  pageUrl: string;
  slackTeamId: string;
  slackChannel: string;
  /** ts of the header (thread parent); empty until the outbox posted it. */
  threadTs: string;
  /** Highest sequence number handed out in this conversation. */
  lastSeq: number;
  /**
   * The Slack ts of its latest thread replies relayed (the last SLACK_REPLIES_KEPT), written by the write that hands
   * out their seq: a retry of Slack's event, in any process, finds its reply here and is not relayed again. Not read
   * by default.
   */
  slackReplyTs?: string[];
  lastVisitorMsgAt: Date | null;
  lastOperatorMsgAt: Date | null;
  /**
   * When the reminder pass looks at this conversation next (a visitor message sets it to its wait's first reminder,
   * or null when the widget's reminders are off; a change of those settings to now; the pass moves it to the next
   * reminder's time, or null when nothing is due any more), so the pass reads only what is due.
   */
  reminderAt: Date | null;
  /** Set once noAnswerWebhookUrl was called for this conversation. */
  noAnswerNotifiedAt: Date | null;
  /**
   * When the conversation may first be ended for inactivity: the visitor's last activity (their last message, or the
   * start) plus the widget's maxVisitorInactiveMins; null once ended (or its widget is gone). The inactivity check
   * reads only open conversations whose time has come (an index on it) and moves it on while the visitor is still on
   * the page.
   */
  inactiveAt: Date | null;
  /** When the no-answer webhook is due (startedAt + noAnswerMessageAfterSecs); null once answered, notified or ended. */
  noAnswerAt: Date | null;
  /**
   * When the automatic answer from the help center is due (startedAt + the widget's autoAnswerAfterSeconds, or now
   * when the widget went offline); null once an operator answered, it was looked for, or it is off.
   */
  autoAnswerAt: Date | null;
  /** Set when the due work claimed the automatic answer (one per conversation, whether an article matched or not). */
  autoAnsweredAt: Date | null;
  /** The automatic answer's message, '' when none was sent. */
  autoAnswerMessageId: string;
  /** The visitor said an article of the automatic answer answered their question: the wait ended. */
  resolvedByArticleAt: Date | null;
  resolvedArticleId: string;
  /** Highest seq any of the visitor's tabs has shown with the panel open and the page visible (`seen` frames). */
  seenSeq: number;
  /**
   * When operator replies the visitor has not seen are mailed (the first unseen reply of a wait plus the widget's
   * emailUnseenAfterMinutes); null while nothing waits. The unseen-mail check reads only those whose time has come.
   */
  unseenMailAt: Date | null;
  /** Highest seq already mailed: a reply is never mailed twice. */
  mailedSeq: number;
  /** The mail job that last claimed replies (a rerun of it sends the same range: `mailedFromSeq` < seq ≤ `mailedSeq`). */
  mailJobId: string;
  mailedFromSeq: number;
  /** Highest operator reply that got Slack's :eyes: reaction (the visitor saw it). */
  eyesSeq: number;
  transcriptSentTo: string;
  /** Ended with `/parley discard`: no post-chat actions ran, and reports leave it out. */
  discarded: boolean;
  /** Chat messages the visitor and the operators sent (counted as each is stored, for the reports). */
  visitorMsgs: number;
  operatorMsgs: number;
  /** The visitor's opening message, its first line (the history report shows it); '' once erased. */
  firstLine: string;
  /**
   * What the history search finds the chat by (server/shared/searchTerms.ts): the normalized words of its messages
   * and every beginning of its visitor's name and e-mail words; emptied when the visitor is erased.
   */
  searchTerms: string[];
  /** Set when the visitor was erased (GDPR): the visitor, the messages and the files are gone, the count stays. */
  erasedAt: Date | null;
  /**
   * Set by data retention just before the conversation is deleted (after it was counted in DeletedConversations):
   * absent on every other conversation, so a retention pass that stopped half-way never counts one twice.
   */
  purgedAt?: Date;
  /** The operator who has it in the shared inbox (a Slack user id of `slackTeamId`'s workspace); '' when nobody. */
  assigneeId: string;
  assignedAt: Date | null;
  /** The shared inbox's state (see InboxState); absent on conversations stored before the inbox. */
  inboxState?: InboxState;
  /** While snoozed: when it comes back to open. */
  snoozedUntil: Date | null;
  /** Tags from the widget's list (ChatEndpoint `tags`), in the order they were added. */
  tags: string[];
  /**
   * The response target that runs (the widget's first- or next-response target, counted in business time): when it
   * is missed, and which one; null while no target runs. `targetRemindedAt`: the one reminder of a missed target.
   */
  targetDueAt: Date | null;
  targetKind: 'first' | 'next' | null;
  targetRemindedAt: Date | null;
  /**
   * Since when the visitor waits for the team (their line of a new wait, or a snooze's end); null while nobody waits
   * (answered, snoozed, ended). An answer turns it into a `response` InboxEvent (commands/responseTargets.ts).
   */
  waitingSince?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
export type ConversationDocument = HydratedDocument<Conversation>;

export const ConversationSchema = new Schema<Conversation>(
  {
    accountId: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    ceId: { type: Schema.Types.ObjectId, ref: 'ChatEndpoint', required: true },
    number: { type: Number, required: true },
    visitorId: { type: Schema.Types.ObjectId, ref: 'Visitor', required: true, index: true },
    status: { type: String, enum: ['open', 'ended'], default: 'open' },
    startedAt: { type: Date, default: () => new Date() },
    endedAt: { type: Date, default: null },
    endedBy: { type: String, enum: ['visitor', 'operator', 'inactivity', null], default: null },
    firstResponseAt: { type: Date, default: null },
    agentName: { type: String, default: '' },
    agentAvatarUrl: { type: String, default: '' },
    agentSlackUserId: { type: String, default: '' },
    rating: { type: String, enum: ['up', 'down', null], default: null },
    feedback: { type: String, default: '' },
    triggerUid: { type: String, default: '' },
    pageUrl: { type: String, default: '' },
    slackTeamId: { type: String, default: '' },
    slackChannel: { type: String, default: '' },
    threadTs: { type: String, default: '' },
    lastSeq: { type: Number, default: 0 },
    slackReplyTs: { type: [String], default: undefined, select: false },
    lastVisitorMsgAt: { type: Date, default: null },
    lastOperatorMsgAt: { type: Date, default: null },
    reminderAt: { type: Date, default: null },
    noAnswerNotifiedAt: { type: Date, default: null },
    inactiveAt: { type: Date, default: null },
    noAnswerAt: { type: Date, default: null },
    autoAnswerAt: { type: Date, default: null },
    autoAnsweredAt: { type: Date, default: null },
    autoAnswerMessageId: { type: String, default: '' },
    resolvedByArticleAt: { type: Date, default: null },
    resolvedArticleId: { type: String, default: '' },
    seenSeq: { type: Number, default: 0 },
    unseenMailAt: { type: Date, default: null },
    mailedSeq: { type: Number, default: 0 },
    mailJobId: { type: String, default: '' },
    mailedFromSeq: { type: Number, default: 0 },
    eyesSeq: { type: Number, default: 0 },
    transcriptSentTo: { type: String, default: '' },
    discarded: { type: Boolean, default: false },
    visitorMsgs: { type: Number, default: 0 },
    operatorMsgs: { type: Number, default: 0 },
    firstLine: { type: String, default: '' },
    searchTerms: { type: [String], default: undefined },
    erasedAt: { type: Date, default: null },
    purgedAt: { type: Date },
    assigneeId: { type: String, default: '' },
    assignedAt: { type: Date, default: null },
    inboxState: { type: String, enum: INBOX_STATES },
    snoozedUntil: { type: Date, default: null },
    tags: { type: [String], default: [] },
    targetDueAt: { type: Date, default: null },
    targetKind: { type: String, enum: ['first', 'next', null], default: null },
    targetRemindedAt: { type: Date, default: null },
    waitingSince: { type: Date, default: null },
  },
  { timestamps: true },
);
ConversationSchema.index({ ceId: 1, number: 1 }, { unique: true });
// The public API pages an account's conversations newest first; the GDPR export reads them all.
ConversationSchema.index({ accountId: 1, _id: -1 });
ConversationSchema.index({ slackChannel: 1, threadTs: 1 });
ConversationSchema.index({ reminderAt: 1 });
// The inactivity and no-answer checks: open conversations whose due time has come, earliest first.
ConversationSchema.index({ status: 1, inactiveAt: 1 });
ConversationSchema.index({ status: 1, noAnswerAt: 1 });
ConversationSchema.index({ status: 1, autoAnswerAt: 1 });
// The snooze's end: open conversations whose snoozedUntil has come (relay/index.ts wakeSnoozed).
ConversationSchema.index({ status: 1, snoozedUntil: 1 });
// Missed response targets not reminded yet, earliest first (relay/index.ts remindMissedTargets).
ConversationSchema.index({ status: 1, targetRemindedAt: 1, targetDueAt: 1 });
// The unseen-replies mail: conversations (open or ended) whose wait has come, earliest first.
ConversationSchema.index({ unseenMailAt: 1 });
// Reports: a widget's kept conversations in a time range (equality, then range; newest first for the history).
ConversationSchema.index({ ceId: 1, discarded: 1, startedAt: 1 });
// The history search: a widget's kept chats holding a word (multikey on searchTerms), newest first.
ConversationSchema.index({ ceId: 1, discarded: 1, searchTerms: 1, startedAt: -1 });
// The history's tag filter: a widget's kept chats carrying a tag (multikey on tags), newest first.
ConversationSchema.index({ ceId: 1, discarded: 1, tags: 1, startedAt: -1 });

export type ConversationModel = Model<Conversation>;
export function conversationModel(connection: Connection): ConversationModel {
  return (
    (connection.models.Conversation as ConversationModel | undefined) ?? connection.model<Conversation>('Conversation', ConversationSchema)
  );
}
