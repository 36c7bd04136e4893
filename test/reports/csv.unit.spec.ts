/** The chat download's CSV: every awkward value reads back as it was, formulas defused (csv-stringify writes it). */
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { Types } from 'mongoose';
import { CHAT_COLUMNS, writeChatsCsv } from '../../server/reports/export';
import type { ChatBatch, ConversationRow, Room, VisitorRow } from '../../server/reports/history';

describe('chat download CSV', () => {
  const tricky = ['Vera', 'Boston, US', 'She said "hi"', 'two\nlines', 'héllo ✓ 日本', ' padded ', "it's", '{"plan":"gold","seats":3}'];
  const formulas = ['=SUM(A1:A9)', '+1 555', '-2', '@here', '=HYPERLINK("http://x","y"),z'];
  const room: Room = { _id: new Types.ObjectId(), RoomName: 'support', RoomId: 'C1', slackBaseUrl: '', identitySecret: '' };

  async function download(names: string[]): Promise<string[][]> {
    const visitors = new Map<string, VisitorRow>();
    const rows = names.map((name) => {
      const visitorId = new Types.ObjectId();
      visitors.set(String(visitorId), { _id: visitorId, name } as VisitorRow);
      return { _id: new Types.ObjectId(), visitorId, startedAt: new Date('2026-11-02T10:00:00Z'), feedback: name } as ConversationRow;
    });
    async function* batches(): AsyncGenerator<ChatBatch> {
      yield { rows, visitors };
    }
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await writeChatsCsv(room, batches(), out);
    return parseCsv(Buffer.concat(chunks).toString('utf8')) as string[][];
  }

  it('reads back names and feedback with commas, quotes and line breaks exactly as they were', async () => {
    const [header, ...rows] = await download(tricky);
    expect(header).to.deep.equal(CHAT_COLUMNS);
    expect(rows.map((r) => r[3])).to.deep.equal(tricky);
    expect(rows.map((r) => r[7])).to.deep.equal(tricky);
  });

  it('defuses cells a spreadsheet would run as formulas with a leading apostrophe', async () => {
    const [, ...rows] = await download(formulas);
    expect(rows.map((r) => r[3])).to.deep.equal(formulas.map((f) => `'${f}`));
  });
});
