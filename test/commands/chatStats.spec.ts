import { expect } from 'chai';
import { Types } from 'mongoose';
import { chatStatsFor, computeChatStats } from '../../server/commands/chatStats';
import { STATS_WINDOW_DAYS } from '../../server/shared/constants';
import { useStore } from './helpers';

const DAY = 24 * 60 * 60 * 1000;

describe('chatStats', () => {
  const store = useStore();
  const now = new Date('2026-03-31T12:00:00Z');

  it('counts the last 24 hours, the total, a 30-day average to one decimal and one entry per day, oldest first', () => {
    const stats = computeChatStats(
      [new Date(now.getTime() - 60_000), new Date(now.getTime() - 2 * 60_000), new Date(now.getTime() - 3 * DAY)],
      41,
      now,
    );
    expect(stats.last24h).to.equal(2);
    expect(stats.total).to.equal(41);
    expect(stats.avg30d).to.equal(0.1);
    expect(stats.dailyCounts30d).to.have.length(STATS_WINDOW_DAYS);
    expect(stats.dailyCounts30d.at(-1)).to.deep.equal({ date: '2026-03-31', chats: 2 });
    expect(stats.dailyCounts30d.find((d) => d.date === '2026-03-28')?.chats).to.equal(1);
    expect(stats.dailyCounts30d[0]?.date).to.equal('2026-03-02');
  });

  it("counts each widget's own stored conversations, and nothing for one without any", async () => {
    const accountId = new Types.ObjectId();
    const [a, b] = [new Types.ObjectId(), new Types.ObjectId()];
    const conversation = (ceId: Types.ObjectId, number: number, startedAt: Date) =>
      store.models.Conversation.collection.insertOne({
        accountId,
        ceId,
        number,
        visitorId: new Types.ObjectId(),
        status: 'ended',
        startedAt,
      });
    await conversation(a, 1, new Date(now.getTime() - 3600_000));
    await conversation(a, 2, new Date(now.getTime() - 40 * DAY));
    const stats = await chatStatsFor(store.models, [a, b], now);
    expect(stats.get(a.toHexString())).to.include({ last24h: 1, total: 2 });
    expect(stats.get(b.toHexString())).to.include({ last24h: 0, total: 0, avg30d: 0 });
  });
});
