/**
 * The help center's search across a deployment: each Parley process keeps its own index of a widget's articles in
 * memory, so an article saved (or unpublished) anywhere else must be found (or no longer found) through any process
 * within a second.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import mongoose, { type Connection, Types } from 'mongoose';
import { createModels, type Models } from '../../server/models';
import { type Stack, startStack } from '../helpers/processes';

describe('the help center search across processes', function () {
  this.timeout(180_000);
  let stack: Stack;
  let connection: Connection;
  let models: Models;
  let widget: { Id: string; Uuid: string; accountId: string };

  before(async () => {
    stack = await startStack({ parleys: 2, redis: true });
    connection = await mongoose.createConnection(stack.mongo.uri, { dbName: stack.dbName }).asPromise();
    models = createModels(connection);
    const [a, b] = stack.parleys;
    const signUp = await fetch(`${a?.url}/v1/p/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `search-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery' }),
    });
    const { token } = (await signUp.json()) as { token: string };
    const current = await fetch(`${b?.url}/v1/users/current`, { headers: { authorization: `Bearer ${token}` } });
    const [ce] = ((await current.json()) as { ces: { Id: string; Uuid: string }[] }).ces;
    const stored = await models.ChatEndpoint.findById(ce?.Id).orFail();
    widget = { Id: String(stored._id), Uuid: stored.Uuid, accountId: String(stored.accountId) };
  });
  after(async () => {
    await connection?.close();
    await stack?.close();
  });

  const titlesThrough = async (url: string | undefined, q: string): Promise<string[]> => {
    const res = await fetch(`${url}/widget/api/${widget.Uuid}/articles/search?q=${encodeURIComponent(q)}&lang=en`);
    expect(res.status).to.equal(200);
    return ((await res.json()) as { articles: { title: string }[] }).articles.map((a) => a.title);
  };

  /** How long until `check` holds when asked through both processes in turn, at most 5 s. */
  const msUntil = async (check: () => Promise<boolean>): Promise<number> => {
    const started = Date.now();
    while (Date.now() - started < 5_000) {
      if (await check()) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return Number.POSITIVE_INFINITY;
  };

  it('finds an article saved elsewhere through both processes within a second, and drops it as fast when unpublished', async () => {
    const [a, b] = stack.parleys;
    await models.Article.create({
      accountId: new Types.ObjectId(widget.accountId),
      ceId: new Types.ObjectId(widget.Id),
      title: 'Export your notes',
      body: 'Choose Export in the menu.',
      language: 'en',
      slug: 'export',
      published: true,
    });
    // Both processes have built the widget's index before the write they must notice.
    expect(await titlesThrough(a?.url, 'export notes')).to.deep.equal(['Export your notes']);
    expect(await titlesThrough(b?.url, 'refund policy')).to.deep.equal([]);

    const refund = await models.Article.create({
      accountId: new Types.ObjectId(widget.accountId),
      ceId: new Types.ObjectId(widget.Id),
      title: 'Refund policy',
      body: 'Annual plans are refunded within 14 days.',
      language: 'en',
      slug: 'refunds',
      published: true,
    });
    const foundThroughB = await msUntil(async () => (await titlesThrough(b?.url, 'refund policy')).includes('Refund policy'));
    const foundThroughA = await msUntil(async () => (await titlesThrough(a?.url, 'refund policy')).includes('Refund policy'));
    expect(foundThroughB, 'found through B (ms)').to.be.at.most(1000);
    expect(foundThroughA, 'found through A (ms)').to.be.at.most(1000);

    await models.Article.updateOne({ _id: refund._id }, { $set: { published: false } });
    const goneThroughB = await msUntil(async () => (await titlesThrough(b?.url, 'refund policy')).length === 0);
    expect(goneThroughB, 'unpublished through B (ms)').to.be.at.most(1000);
  });
});
