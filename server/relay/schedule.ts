/**
 * Operating hours (spec section 4): widgets with the schedule on are online only within their hours (presence
 * reads the hours on every check). This watcher makes the scheduled ON and OFF times happen on time: every
 * scheduleCheckMs (the scheduler's 'operating hours' task, server/tasks.ts) it reads the clock, and a widget whose hours now say otherwise than at the previous check gets
 * its open widgets told at once and, when the owner asked for it, a bot message in its channel. A change of hours,
 * time zone or schedule switch resets the remembered state, so saving hours is not announced as an ON or OFF time.
 * Several Parley processes may check at once: the conditional update lets only one of them announce a change.
 */

import type { JobQueue } from '../conversations/context';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';
import type { RelayContext } from './context';
import { withinOperatingHours } from './presence';

/** The bot message of a scheduled change, in the widget's time zone. */
export function scheduleMessage(open: boolean, tz: string): string {
  return open
    ? `:large_green_circle: Operating hours have started (${tz}): the website chat is now *on*.`
    : `:red_circle: Operating hours have ended (${tz}): the website chat is now *off* until the next scheduled time.`;
}

export class OperatingSchedule {
  private running: Promise<void> | null = null;

  constructor(private readonly ctx: RelayContext) {}

  /** One check of every scheduled widget (tests call it after moving their clock); overlapping calls share one run. */
  check(): Promise<void> {
    this.running ??= this.checkNow().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async checkNow(): Promise<void> {
    const now = this.ctx.clock.now();
    for await (const ce of this.ctx.models.ChatEndpoint.find({ onOffSchedule: true, Step: 3 }).cursor()) {
      try {
        await this.checkWidget(ce, now);
      } catch (error) {
        this.ctx.logger.warn({ widgetId: ce.id, err: error }, 'schedule: could not check a widget');
      }
    }
  }

  private async checkWidget(ce: ChatEndpointDocument, now: Date): Promise<void> {
    const open = withinOperatingHours(ce, now);
    if (ce.scheduleOpen === open) return;
    const updated = await this.ctx.models.ChatEndpoint.updateOne(
      { _id: ce._id, scheduleOpen: ce.scheduleOpen },
      { $set: { scheduleOpen: open } },
    );
    if (updated.modifiedCount !== 1) return;
    await this.ctx.presence.recheck(ce.id);
    this.ctx.pubsub.signal({ kind: 'widget', ceId: ce.id });
    // A state learnt for the first time since the hours changed is no scheduled ON or OFF time: nothing to announce.
    if (ce.scheduleOpen !== null && ce.sendOpHourChangeMessages && ce.RoomId) await this.announce(ce, open);
  }

  private async announce(ce: ChatEndpointDocument, open: boolean): Promise<void> {
    await announceInChannel(this.ctx, ce, scheduleMessage(open, ce.tz));
  }
}

/** A line in the widget's channel, through the outbox (after earlier announcements of the widget, paced, retried). */
export async function announceInChannel(
  ctx: { outbox: JobQueue },
  ce: Pick<ChatEndpointDocument, 'id' | 'slackTeamId' | 'RoomId'>,
  text: string,
): Promise<void> {
  await ctx.outbox.enqueue(
    'slack.channelPost',
    `widget:${ce.id}`,
    { teamId: ce.slackTeamId, channel: ce.RoomId, text },
    { channel: ce.RoomId },
  );
}
