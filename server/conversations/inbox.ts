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
