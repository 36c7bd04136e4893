/**
 * Reports → History filtered by tag, shared-inbox state and assignee, through the API: the table's pages, the search
 * within a filter, and the CSV and JSON downloads (with their State, Assignee and Tags). Data: the seeded account of
 * test/reports/seed.ts, some of its chats tagged, one waiting for the visitor, two assigned.
 */
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import type { ChatsPage } from '../../server/shared/reports';
import { useServer } from '../helpers/app';
import { reportRequest, type Seeded, seedReportAccount } from './seed';

describe('reports API: the history filtered by tag, state and assignee', () => {
  let seeded: Seeded;
  const server = useServer();
  before(async () => {
    seeded = await seedReportAccount(server);
    const { Conversation, ChatEndpoint } = server.models;
    const [vera, , xena, , zoe, , discarded] = seeded.chatIds;
    await ChatEndpoint.updateOne({ _id: seeded.ceId }, { $set: { tags: ['billing', 'refund', 'bug'] } });
    await Conversation.updateMany({ _id: { $in: [vera, xena, zoe, discarded] } }, { $set: { tags: ['billing'] } });
    await Conversation.updateOne({ _id: xena }, { $set: { tags: ['billing', 'refund'], assigneeId: 'U0BEN' } });
    await Conversation.updateOne({ _id: zoe }, { $set: { inboxState: 'waiting', assigneeId: 'U0ANA' } });
  });

  const get = (path: string, query: Record<string, string | number | string[]> = {}, token: string | undefined = seeded.token) =>
    reportRequest(server, seeded.ceId, path, query, token);
  const chats = async (query: Record<string, string>) => (await get('chats', query).expect(200)).body as ChatsPage;
  const names = (p: ChatsPage) => p.chats.map((c) => c.visitor.name);

  it('lists only the kept chats carrying the tag, newest first, however the tag is typed', async () => {
    const billing = await chats({ tag: 'billing' });
    // The discarded chat carries billing too: it stays out, as everywhere in the reports.
    expect(names(billing)).to.deep.equal(['Zoe', 'Xena', 'Vera']);
    expect(billing.totalChats).to.equal(3);
    expect(billing.chats.find((c) => c.visitor.name === 'Xena')).to.deep.include({
      tags: ['billing', 'refund'],
      state: 'ended',
      assigneeId: 'U0BEN',
    });
    expect(names(await chats({ tag: '#Billing' }))).to.deep.equal(['Zoe', 'Xena', 'Vera']);
    expect(names(await chats({ tag: 'refund' }))).to.deep.equal(['Xena']);
    expect(await chats({ tag: 'bug' })).to.deep.equal({ chats: [], totalChats: 0 });
    // A page of one: the total still counts every chat of the tag.
    const second = await chats({ tag: 'billing', perPage: '1', page: '1' });
    expect([names(second), second.totalChats]).to.deep.equal([['Xena'], 3]);
  });

  it('combines the tag with the state, the assignee and the search', async () => {
    expect(names(await chats({ tag: 'billing', state: 'waiting' }))).to.deep.equal(['Zoe']);
    expect(names(await chats({ tag: 'billing', state: 'ended' }))).to.deep.equal(['Xena', 'Vera']);
    // Chats from before the shared inbox have no stored state: the open one reads as open, the others as ended.
    expect((await chats({ state: 'open' })).totalChats).to.equal(0);
    expect((await chats({ state: 'ended' })).totalChats).to.equal(6);
    expect(names(await chats({ assignee: 'U0BEN' }))).to.deep.equal(['Xena']);
    expect(names(await chats({ tag: 'billing', assignee: 'none' }))).to.deep.equal(['Vera']);
    expect(names(await chats({ tag: 'billing', q: 'vera' }))).to.deep.equal(['Vera']);
    expect(names(await chats({ tag: 'refund', q: 'vera' }))).to.deep.equal([]);
  });

  it('downloads only the filtered chats, the CSV with their state, assignee and tags', async () => {
    const res = await get('chats/download', { format: 'csv', tag: 'billing' }).buffer(true).expect(200);
    const [header, ...rows] = parseCsv(res.text) as string[][];
    expect(header?.slice(-3)).to.deep.equal(['State', 'Assignee', 'Tags']);
    expect(rows.map((r) => [r[3], ...r.slice(-3)])).to.deep.equal([
      ['Zoe', 'waiting', 'U0ANA', 'billing'],
      ['Xena', 'ended', 'U0BEN', 'billing, refund'],
      ['Vera', 'ended', '', 'billing'],
    ]);
    const json = JSON.parse((await get('chats/download', { format: 'json', state: 'waiting' }).buffer(true).expect(200)).text) as ChatsPage;
    expect(json.totalChats).to.equal(1);
    expect(json.chats[0]).to.deep.include({ tags: ['billing'], state: 'waiting', assigneeId: 'U0ANA' });
    // Unfiltered, the CSV holds every kept chat, untagged ones with an empty Tags cell.
    const all = parseCsv((await get('chats/download', { format: 'csv' }).buffer(true).expect(200)).text) as string[][];
    expect(all).to.have.length(8);
    expect(all.find((r) => r[3] === 'Walt')?.at(-1)).to.equal('');
  });

  it('answers 400 with a Message for a tag that is not one tag, an unknown state or assignee', async () => {
    for (const path of ['chats', 'chats/download']) {
      const format: Record<string, string> = path === 'chats' ? {} : { format: 'csv' };
      expect((await get(path, { ...format, tag: ['billing', 'refund'] }).expect(400)).body.Message).to.match(/tag must be given once/);
      expect((await get(path, { ...format, tag: 'two words' }).expect(400)).body.Message).to.match(/is not one word/);
      expect((await get(path, { ...format, tag: '' }).expect(400)).body.Message).to.match(/cannot be empty/);
      expect((await get(path, { ...format, tag: 'x'.repeat(200) }).expect(400)).body.Message).to.match(/longer than 30/);
      expect((await get(path, { ...format, state: 'later' }).expect(400)).body.Message).to.match(/state must be one of open, waiting/);
      expect((await get(path, { ...format, assignee: 'bob' }).expect(400)).body.Message).to.match(/assignee must be a Slack user id/);
    }
  });

  it('keeps the filtered history from other accounts and from callers without a session', async () => {
    const other = await seedReportAccount(server);
    await reportRequest(server, other.ceId, 'chats', { tag: 'billing' }, seeded.token).expect(404);
    await get('chats', { tag: 'billing' }, '').expect(403);
  });
});
