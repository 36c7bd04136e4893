/**
 * Conversation statistics of widgets for the dashboard cards, counted from the conversations the relay stores.
 */
import type { Types } from 'mongoose';
import type { Models } from '../models';
import { STATS_WINDOW_DAYS } from '../shared/constants';
import type { ChatStats } from '../shared/types';

const DAY_MS = 24 * 60 * 60 * 1000;

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** Pure: the stats of one widget from the start times of its conversations in the window and its all-time total. */
export function computeChatStats(startedAts: Date[], total: number, now: Date): ChatStats {
  const byDay = new Map<string, number>();
  for (const at of startedAts) byDay.set(utcDay(at), (byDay.get(utcDay(at)) ?? 0) + 1);
  const dailyCounts30d: ChatStats['dailyCounts30d'] = [];
  for (let i = STATS_WINDOW_DAYS - 1; i >= 0; i--) {
    const date = utcDay(new Date(now.getTime() - i * DAY_MS));
    dailyCounts30d.push({ date, chats: byDay.get(date) ?? 0 });
  }
  const inWindow = dailyCounts30d.reduce((sum, day) => sum + day.chats, 0);
  return {
    last24h: startedAts.filter((at) => at.getTime() > now.getTime() - DAY_MS).length,
    total,
    avg30d: Math.round((inWindow / STATS_WINDOW_DAYS) * 10) / 10,
    dailyCounts30d,
  };
}

export async function chatStatsFor(models: Models, chatEndpointIds: Types.ObjectId[], now = new Date()): Promise<Map<string, ChatStats>> {
  const windowStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (STATS_WINDOW_DAYS - 1) * DAY_MS);
  const stats = new Map<string, ChatStats>();
  for (const id of chatEndpointIds) {
    const [recent, total] = await Promise.all([
      models.Conversation.find({ ceId: id, startedAt: { $gte: windowStart } }, { startedAt: 1 }).lean(),
      models.Conversation.countDocuments({ ceId: id }),
    ]);
    const startedAts = recent.map((c) => c.startedAt).filter((at): at is Date => at instanceof Date);
    stats.set(id.toHexString(), computeChatStats(startedAts, total, now));
  }
  return stats;
}
