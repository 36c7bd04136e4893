/**
 * The Zapier app (integrations/zapier) run by zapier-platform-core's own test tools (createAppTester) against a
 * Parley started here: the connection test, each REST-hook trigger's subscribe → live call → perform →
 * unsubscribe, its performList samples from the API in the same shape, and the Find Conversation search.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { createAppTester } from 'zapier-platform-core';
import app from '../../integrations/zapier/src';
import { setAssignee } from '../../server/commands/assignConversation';
import { endConversation } from '../../server/commands/endConversation';
import { sendOfflineMessage } from '../../server/commands/sendOfflineMessage';
import { tagConversation } from '../../server/commands/tagConversation';
import { ALICE, eventually, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';

// What `zapier validate` runs: the app compiled as Zapier loads it, checked against zapier-platform-schema (no types shipped).
const schemaTools = require('zapier-platform-core/src/tools/schema') as {
  prepareApp(app: unknown): unknown;
  validateApp(compiled: unknown): unknown[];
};

type Item = { id: string } & Record<string, unknown>;
type Trigger = { operation: Record<'performSubscribe' | 'performUnsubscribe' | 'perform' | 'performList', unknown> };

/** Stands in for hooks.zapier.com: keeps each call's JSON body. */
async function zapierCatcher() {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.end('{"status":"success"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/standard/1/abc`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the Zapier app (integrations/zapier)', () => {
  const server = useRelayServer();
  const appTester = createAppTester(app);
  let widget: SetUp;
  let authData: { baseUrl: string; apiKey: string };

  const triggerOf = (key: string) => (app.triggers as Record<string, Trigger>)[key] as Trigger;
  const run = <T>(key: string, method: keyof Trigger['operation'], bundle: Record<string, unknown> = {}) =>
    appTester(triggerOf(key).operation[method] as never, { authData, ...bundle }) as Promise<T>;

  before(async () => {
    widget = await setUpRelayWidget(server);
    const res = await request(server.url)
      .put('/v1/accounts/generate-api-key')
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ key: 'zapierApiKey' })
      .expect(200);
    // A trailing slash, as people paste addresses.
    authData = { baseUrl: `${server.url}/`, apiKey: res.body.account.zapierApiKey };
  });

  it('is a valid Zapier app definition with the five triggers and the search', () => {
    expect(schemaTools.validateApp(schemaTools.prepareApp(app))).to.deep.equal([]);
    expect(Object.keys(app.triggers).sort()).to.deep.equal(
      ['conversation_ended', 'conversation_rated', 'new_conversation', 'new_offline_message', 'new_visitor_message'].sort(),
    );
    expect(Object.keys(app.searches)).to.deep.equal(['find_conversation']);
  });

  it("tests the connection with the Zapier key and names it after the organisation; refuses a wrong key with Parley's reason", async () => {
    const me = (await appTester(app.authentication.test, { authData })) as { key: string; widgets: { widgetId: string }[] };
    expect(me.key).to.equal('zapier');
    expect(me.widgets.map((w) => w.widgetId)).to.deep.equal([widget.uuid]);
    const label = await appTester(app.authentication.connectionLabel, { authData, inputData: { orgName: 'Acme' } });
    expect(label).to.equal('Acme');
    let refused: unknown;
    await appTester(app.authentication.test, { authData: { ...authData, apiKey: 'zk_wrongwrongwrongwrongwrongwrongwrongwrong1' } }).catch(
      (error: unknown) => {
        refused = error;
      },
    );
    expect(String((refused as Error | undefined)?.message)).to.include('Parley refused the Zapier API key');
  });

  it('subscribes each trigger, turns each live call into an item shaped like its samples, and unsubscribes', async () => {
    const catcher = await zapierCatcher();
    try {
      const keys = ['new_conversation', 'new_visitor_message', 'conversation_ended', 'conversation_rated', 'new_offline_message'];
      const subscriptions = new Map<string, { id: string; secret: string }>();
      for (const key of keys) {
        const sub = await run<{ id: string; secret: string }>(key, 'performSubscribe', { targetUrl: `${catcher.url}?trigger=${key}` });
        expect(sub.secret, key).to.match(/^whsec_/);
        subscriptions.set(key, sub);
      }

      const { socket } = await VisitorSocket.hello(server, widget.uuid, { identity: { name: 'Erin', email: 'erin@example.org' } });
      await say(socket, 'Do you ship to Lyon?');
      socket.send({ t: 'rate', rating: 'up', feedback: 'Quick' });
      const conversation = await server.models.Conversation.findOne({ ceId: widget.ceId }).sort({ _id: -1 });
      if (!conversation) throw new Error('no conversation');
      await eventually(async () => expect((await server.models.Conversation.findById(conversation._id))?.rating).to.equal('up'));
      // The shared inbox: Alice has it and tagged it before it ended.
      await setAssignee(server.parley.relay, conversation._id, { assigneeId: ALICE, byId: ALICE });
      await tagConversation(server.parley.relay, conversation._id, { add: ['billing', 'refund'] }, ALICE);
      await endConversation(server.parley.relay, conversation._id, 'visitor');
      socket.close();
      await sendOfflineMessage(
        server.parley.relay,
        await widget.widget(),
        { name: 'Nora', email: 'nora@example.org', message: 'Call me back' },
        { country: '' },
      );

      const events = ['conversation.started', 'visitor_message', 'conversation.rated', 'conversation.archived', 'offline_message'];
      await eventually(async () => expect(catcher.bodies.map((b) => b.event)).to.have.members(events));
      const payloadOf = (event: string) => catcher.bodies.find((b) => b.event === event);
      const byTrigger: Record<string, string> = {
        new_conversation: 'conversation.started',
        new_visitor_message: 'visitor_message',
        conversation_ended: 'conversation.archived',
        conversation_rated: 'conversation.rated',
        new_offline_message: 'offline_message',
      };
      for (const key of keys) {
        const [item] = await run<Item[]>(key, 'perform', { cleanedRequest: payloadOf(byTrigger[key] ?? '') });
        const samples = await run<Item[]>(key, 'performList');
        expect(samples.length, `${key} samples`).to.be.greaterThan(0);
        expect(Object.keys(item ?? {}).sort(), key).to.deep.equal(Object.keys(samples[0] ?? {}).sort());
        expect(
          samples.map((s) => s.id),
          key,
        ).to.include(item?.id);
      }
      const [message] = await run<Item[]>('new_visitor_message', 'perform', { cleanedRequest: payloadOf('visitor_message') });
      expect(message).to.include({ text: 'Do you ship to Lyon?', conversationId: String(conversation._id), widgetId: widget.uuid });
      const [ended] = await run<Item[]>('conversation_ended', 'perform', { cleanedRequest: payloadOf('conversation.archived') });
      expect(ended).to.include({ status: 'ended', endedBy: 'visitor', rating: 'up', visitorEmail: 'erin@example.org' });
      // State, assignee (with their Slack name) and tags, as the archive webhook carries them.
      expect(ended).to.deep.include({ state: 'ended', assigneeId: ALICE, assigneeName: 'Alice', tags: ['billing', 'refund'] });
      const archived = payloadOf('conversation.archived')?.conversation as Record<string, unknown> | undefined;
      expect(archived).to.deep.include({ state: 'ended', assigneeId: ALICE, tags: ['billing', 'refund'] });
      const [rated] = await run<Item[]>('conversation_rated', 'perform', { cleanedRequest: payloadOf('conversation.rated') });
      expect(rated).to.deep.include({ state: 'ended', assigneeName: 'Alice', tags: ['billing', 'refund'] });
      // The editor's samples of a new conversation have the same fields, with nobody assigned and no tag yet.
      const newSample = (app.triggers as Record<string, { operation: { sample: Item } }>).new_conversation?.operation.sample;
      expect(newSample).to.deep.include({ state: 'open', assigneeId: '', assigneeName: '', tags: [] });
      const [offline] = await run<Item[]>('new_offline_message', 'perform', { cleanedRequest: payloadOf('offline_message') });
      expect(offline).to.include({ name: 'Nora', email: 'nora@example.org', message: 'Call me back', widgetId: widget.uuid });

      for (const [key, sub] of subscriptions) await run(key, 'performUnsubscribe', { subscribeData: sub });
      const left = await request(server.url).get('/v1/api/hooks').set('Authorization', `Bearer ${authData.apiKey}`).expect(200);
      expect(left.body).to.deep.equal([]);
      // Unsubscribing again (Zapier retries) is not an error.
      await run('new_conversation', 'performUnsubscribe', { subscribeData: subscriptions.get('new_conversation') });
    } finally {
      await catcher.close();
    }
  });

  it("finds a visitor's newest conversation by e-mail, and none for an unknown one", async () => {
    const search = app.searches.find_conversation.operation.perform;
    const found = (await appTester(search, { authData, inputData: { email: 'ERIN@example.org' } })) as Item[];
    expect(found).to.have.length(1);
    expect(found[0]).to.include({ visitorEmail: 'erin@example.org', widgetId: widget.uuid });
    expect(await appTester(search, { authData, inputData: { email: 'erin@example.org', status: 'open' } })).to.deep.equal([]);
    expect(await appTester(search, { authData, inputData: { email: 'nobody@example.org' } })).to.deep.equal([]);
  });
});
