/**
 * Data moves an upgrade needs once, run by main.ts at start before any part uses the data. Each is safe to run
 * again (a start interrupted halfway, or every start after): it finds nothing left to move.
 */
import type { Connection, Types } from 'mongoose';
import type { Models } from '.';
import { tallyStoredInboxEvents } from './inboxTallies';

/** Runs every migration in order; answers what each moved. */
export async function runMigrations(
  connection: Connection,
  models: Models,
): Promise<{ threadPosts: number; quietReminders: number; retiredJobs: number; inboxStates: number; inboxTallies: number }> {
  return {
    threadPosts: await moveQueuedThreadPosts(connection, models),
    quietReminders: await quietReminderDefaults(models),
    retiredJobs: await retireJobKinds(models),
    inboxStates: await inboxStatesOfOlderConversations(models),
    // InboxEvents stored before Reports → Team read day tallies (models/inboxTallies.ts) are tallied once.
    inboxTallies: await tallyStoredInboxEvents(models),
  };
}

/**
 * Outbox jobs of the two kinds earlier versions queued and this one no longer has become the kinds that took their
 * place, in place: same id, key, attempts and lease, so they keep their turn in their key's order, a process of the
 * earlier version running one still holds it, and a post an earlier attempt may have made is found in Slack
 * (slack/postOnce.ts looks for the job's id, and its `slackMaybePosted` mark is kept).
 * - `slack.note` (a grey line in a thread that named its team, channel and thread) becomes a `slack.threadPost` note
 *   of its conversation: posted in the conversation's thread, which is the one it named (a thread never moves).
 * - `slack.offline` (an offline message in the channel) becomes `slack.channelPost`, its one handler, payload as is.
 * Returns how many jobs it moved.
 */
export async function retireJobKinds(models: Pick<Models, 'OutboxJob'>): Promise<number> {
  const { OutboxJob } = models;
  const offline = await OutboxJob.collection.updateMany({ kind: 'slack.offline' }, { $set: { kind: 'slack.channelPost' } });
  type StoredNote = { _id: Types.ObjectId; key: string; conversationId: Types.ObjectId | null; payload: Record<string, unknown> };
  const notes = await OutboxJob.collection
    .find<StoredNote>({ kind: 'slack.note' }, { projection: { key: 1, conversationId: 1, payload: 1 } })
    .toArray();
  let moved = offline.modifiedCount;
  for (const note of notes) {
    const { text, slackMaybePosted } = note.payload;
    const payload = {
      conversationId: note.conversationId ? String(note.conversationId) : note.key,
      text: typeof text === 'string' ? text : '',
      look: 'note',
      ...(Array.isArray(slackMaybePosted) ? { slackMaybePosted } : {}),
    };
    // Only if it is still a note: another process may have moved it meanwhile.
    const res = await OutboxJob.collection.updateOne(
      { _id: note._id, kind: 'slack.note' },
      { $set: { kind: 'slack.threadPost', payload } },
    );
    moved += res.modifiedCount;
  }
  return moved;
}

/**
 * Conversations stored before the shared inbox get its fields once: open or ended by their status (as
 * inboxStateOf reads them meanwhile), nobody assigned, no snooze, no tags. The state written marks a conversation
 * done. Returns how many conversations it wrote.
 */
export async function inboxStatesOfOlderConversations(models: Pick<Models, 'Conversation'>): Promise<number> {
  let moved = 0;
  for (const status of ['open', 'ended'] as const) {
    const result = await models.Conversation.updateMany(
      { inboxState: { $exists: false }, status },
      { $set: { inboxState: status, snoozedUntil: null } },
    );
    moved += result.modifiedCount;
  }
  await models.Conversation.updateMany({ assigneeId: { $exists: false } }, { $set: { assigneeId: '', assignedAt: null } });
  await models.Conversation.updateMany({ tags: { $exists: false } }, { $set: { tags: [] } });
  return moved;
}

/**
 * Widgets stored before reminders were spaced out and @here became a choice: responseRemindersMention is written
 * (false, the new default), and those left at the old default pace (60 s, then one reminder a minute) get the new
 * default (120 s: after 5, 15, 30 and 60 minutes); a pace the owner chose stays. The field written marks the widget
 * done, so a later start never changes an owner's choice. Returns how many widgets it wrote.
 */
export async function quietReminderDefaults(models: Pick<Models, 'ChatEndpoint'>): Promise<number> {
  const unmarked = { responseRemindersMention: { $exists: false } };
  const paced = await models.ChatEndpoint.updateMany(
    { ...unmarked, responseRemindersFreq: 60 },
    { $set: { responseRemindersFreq: 120, responseRemindersMention: false } },
  );
  const rest = await models.ChatEndpoint.updateMany(unmarked, { $set: { responseRemindersMention: false } });
  return paced.modifiedCount + rest.modifiedCount;
}

/**
 * Thread posts an earlier version kept in a queue of its own (collection threadposts) move into the outbox
 * once, at start, in their order. Each keeps its id, so a start interrupted halfway moves nothing twice.
 * Posts that queue had given up on are dropped with it. Returns how many moved.
 */
export async function moveQueuedThreadPosts(connection: Connection, models: Models): Promise<number> {
  const old = connection.collection('threadposts');
  const rows = await old.find({ failedAt: null }).sort({ _id: 1 }).toArray();
  let moved = 0;
  for (const row of rows) {
    const conversation = await models.Conversation.findById(row.conversationId, { slackChannel: 1 }).lean<{ slackChannel: string }>();
    if (!conversation) continue;
    try {
      await models.OutboxJob.create({
        _id: row._id,
        kind: 'slack.threadPost',
        key: String(row.conversationId),
        channel: conversation.slackChannel,
        conversationId: row.conversationId,
        payload: {
          conversationId: String(row.conversationId),
          text: typeof row.text === 'string' ? row.text : '',
          look: 'note',
          blocks: Array.isArray(row.blocks) ? row.blocks : [],
          ...(row.username ? { username: String(row.username) } : {}),
          ...(row.iconUrl ? { iconUrl: String(row.iconUrl) } : {}),
          ...(row.messageId ? { messageId: String(row.messageId) } : {}),
        },
      });
      moved += 1;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 11000) throw error;
    }
  }
  if (rows.length > 0 || (await old.countDocuments({})) > 0) await old.deleteMany({});
  return moved;
}
