/**
 * Data moves an upgrade needs once, run by main.ts at start before any part uses the data. Each is safe to run
 * again (a start interrupted halfway, or every start after): it finds nothing left to move.
 */
import type { Connection } from 'mongoose';
import type { Models } from '.';

/** Runs every migration in order; answers what each moved. */
export async function runMigrations(
  connection: Connection,
  models: Models,
): Promise<{ threadPosts: number; quietReminders: number; inboxStates: number }> {
  return {
    threadPosts: await moveQueuedThreadPosts(connection, models),
    quietReminders: await quietReminderDefaults(models),
    inboxStates: await inboxStatesOfOlderConversations(models),
  };
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
