import { expect } from 'chai';
import request from 'supertest';
import { signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { firstWidgetId } from '../slack/helpers';

type TriggerBody = Record<string, unknown>;
const trigger = (extra: TriggerBody = {}): TriggerBody => ({
  uid: 'trg1',
  message: 'Need help choosing?',
  after: 5,
  on: ['/pricing'],
  matchType: 'contains',
  enabled: true,
  displayStyle: 'peek',
  ...extra,
});
const set = (triggers: TriggerBody[], extra: TriggerBody = {}) =>
  JSON.stringify({ minDelay: 60, matchType: 'contains', triggers, ...extra });

describe('triggers saved through update_config', () => {
  let token: string;
  let ceId: string;
  const server = useServer();
  beforeEach(async () => {
    ({ token } = await signUpUser(server));
    ceId = await firstWidgetId(server, token);
    await planOf(ceId, 'parley_pro_monthly');
  });

  async function planOf(id: string, planStripeId: string): Promise<void> {
    const ce = await server.models.ChatEndpoint.findById(id);
    await server.stripe.settled();
    await server.models.Account.updateOne({ _id: ce?.accountId }, { $set: { subscriptionStatus: 'active', planStripeId } });
  }
  const path = (id = ceId) => `/v1/chat_endpoints/${id}/update_config`;
  const save = (triggerJson: unknown, status = 200, t: string | null = token) => {
    const req = request(server.url).put(path()).send({ triggerJson });
    return (t ? req.set('Authorization', `Bearer ${t}`) : req).expect(status);
  };
  const stored = async () =>
    JSON.parse((await server.models.ChatEndpoint.findById(ceId))?.triggerJson ?? '') as { minDelay: number; triggers: TriggerBody[] };
  const publicTriggers = async () => {
    const ce = await server.models.ChatEndpoint.findById(ceId);
    return (await request(server.url).get(`/widget/api/${ce?.Uuid}/config`).expect(200)).body.settings.triggers as {
      triggers: TriggerBody[];
    };
  };

  it('stores the trigger set normalised: pages split, de-duplicated and blanks dropped, transient fields gone', async () => {
    const res = await save(
      set([trigger({ on: ['/pricing, /plans  /pricing', '', ' https://shop.example/checkout '], isNew: true })], { minDelay: 15 }),
    );
    expect(JSON.parse(res.body.triggerJson as string)).to.deep.equal({
      minDelay: 15,
      matchType: 'contains',
      triggers: [
        {
          uid: 'trg1',
          message: 'Need help choosing?',
          after: 5,
          on: ['/pricing', '/plans', 'https://shop.example/checkout'],
          matchType: 'contains',
          enabled: true,
          displayStyle: 'peek',
        },
      ],
    });
    expect((await publicTriggers()).triggers.map((t) => t.message)).to.deep.equal(['Need help choosing?']);
  });

  it('reads a legacy exact flag as matchType exact and a missing match type as contains', async () => {
    const { matchType: _drop, ...noMatch } = trigger({ uid: 'b' });
    await save(set([trigger({ uid: 'a', matchType: undefined, exact: true }), noMatch]));
    expect((await stored()).triggers.map((t) => [t.uid, t.matchType])).to.deep.equal([
      ['a', 'exact'],
      ['b', 'contains'],
    ]);
  });

  it('keeps a disabled trigger stored but out of what visitors receive', async () => {
    await save(set([trigger({ enabled: false })]));
    expect((await stored()).triggers).to.have.length(1);
    expect((await publicTriggers()).triggers).to.deep.equal([]);
  });

  const refusals: [string, string, string][] = [
    ['an empty message', set([trigger({ message: '   ' })]), 'triggerJson: Trigger 1: Enter the message to show.'],
    ['a blank after', set([trigger({ after: '' })]), 'triggerJson: Trigger 1: Enter a number of seconds (0 or more).'],
    ['a negative after', set([trigger({ after: -1 })]), 'triggerJson: Trigger 1: Enter a number of seconds (0 or more).'],
    ['no pages', set([trigger({ on: [' ', ','] })]), 'triggerJson: Trigger 1: Add at least one page.'],
    [
      'an unknown match type',
      set([trigger({ matchType: 'regex' })]),
      'triggerJson: Trigger 1: matchType: Choose Contains, Starts with or Exact.',
    ],
    ['a minDelay over 4 digits', set([], { minDelay: 10000 }), 'triggerJson: Enter a number of minutes (at most 4 digits).'],
    ['text that is not JSON', '{"minDelay": 60,', 'triggerJson: Not valid JSON.'],
    ['two triggers with one uid', set([trigger(), trigger()]), 'triggerJson: Trigger 2: Two triggers have the same uid.'],
  ];
  for (const [why, body, message] of refusals) {
    it(`answers 400 with a Message and stores nothing for ${why}`, async () => {
      await save(set([trigger({ message: 'Kept' })]));
      const res = await save(body, 400);
      expect(res.body.Message).to.equal(message);
      expect((await stored()).triggers.map((t) => t.message)).to.deep.equal(['Kept']);
    });
  }

  it('answers 402 when the plan lacks triggers, yet lets the owner remove them and save other settings', async () => {
    await save(set([trigger()]));
    await planOf(ceId, 'parley_basic_monthly');
    const refused = await save(set([trigger({ message: 'Changed' })]), 402);
    expect(refused.body).to.deep.equal({ Message: 'Your plan does not have access to triggers. Please upgrade.', Error: 'plan_feature' });
    const ce = await server.models.ChatEndpoint.findById(ceId);
    await request(server.url)
      .put(path())
      .set('Authorization', `Bearer ${token}`)
      .send({ triggerJson: ce?.triggerJson, onlineTitle: 'Hello there' })
      .expect(200);
    await save(set([]));
    expect((await stored()).triggers).to.deep.equal([]);
  });

  it('answers 403 without a session', async () => {
    await save(set([trigger()]), 403, null);
  });

  it("answers 404 for another account's widget and leaves its triggers alone", async () => {
    const other = await signUpUser(server);
    await save(set([trigger({ message: 'Stolen' })]), 404, other.token);
    expect((await stored()).triggers).to.deep.equal([]);
  });
});
