/**
 * The shared inbox's reading of a conversation: its state, also for conversations stored before the inbox existed
 * (those have no `inboxState` and read as open or ended, unassigned, untagged).
 */
import type { Conversation, InboxState } from '../models/Conversation';

export function inboxStateOf(c: Pick<Conversation, 'status' | 'inboxState'>): InboxState {
  if (c.status === 'ended') return 'ended';
  return c.inboxState && c.inboxState !== 'ended' ? c.inboxState : 'open';
}

/** The stored conversations inboxStateOf reads as `state` (older ones have no inboxState and read as open or ended). */
export function inboxStateFilter(state: InboxState): { status: 'open' | 'ended'; inboxState?: unknown } {
  if (state === 'ended') return { status: 'ended' };
  return { status: 'open', inboxState: state === 'open' ? { $in: ['open', 'ended', null] } : state };
}

/**
 * The shared inbox's fields of a conversation as webhooks carry them (the archive's and every conversation event's):
 * its state, who has it ('' when nobody: the Slack user id, as the API's `assigneeId`) and its tags.
 */
export function inboxFieldsOf(c: Pick<Conversation, 'status' | 'inboxState' | 'assigneeId' | 'tags'>): {
  state: InboxState;
  assigneeId: string;
  tags: string[];
} {
  return { state: inboxStateOf(c), assigneeId: c.assigneeId ?? '', tags: [...(c.tags ?? [])] };
}
