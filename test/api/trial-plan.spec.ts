/**
 * The trial runs on the top self-serve plan (Business): a new account can use bots, triggers, question groups and
 * reports at once. When the trial ends on Basic those are refused (402, triggers no longer sent to visitors), the
 * account view says exactly what was switched off, and what was set up stays stored: on upgrade it works again.
 */
import { expect } from 'chai';
import request from 'supertest';
import { useServer } from '../helpers/app';
import { endTrialNow, payCheckout, type TrialAccount, trialAccount } from '../helpers/billing';
import { firstWidgetId, setUpWidget } from '../slack/helpers';

const TRIGGERS = JSON.stringify({
  minDelay: 10,
  matchType: 'contains',
  triggers: [{ uid: 't1', message: 'Need a hand?', after: 3, on: ['/'], matchType: 'contains', enabled: true, displayStyle: 'peek' }],
});
const GROUP = {
  label: 'Triage',
  shortcut: 'triage',
  prompt: 'What do you need?',
  auto: false,
  treeJson: JSON.stringify([
    { text: 'Sales or support?', isQ: true, expanded: true, children: [{ text: 'Sales', isQ: false, action: '', children: [] }] },
  ]),
};

describe('the trial has every feature of the top self-serve plan', function () {
  this.timeout(90_000);
  const server = useServer();
  const api = () => request(server.url);

  let trial: TrialAccount;
  let ceId: string;
  beforeEach(async () => {
    trial = await trialAccount(server);
    ceId = await firstWidgetId(server, trial.token);
    await setUpWidget(server, trial.token, ceId);
  });

  const auth = () => ({ Authorization: `Bearer ${trial.token}` });
  const account = async () => (await api().get('/v1/users/current').set(auth()).expect(200)).body.account;
  const botUsers = (status: number) => api().get(`/v1/chat_endpoints/${ceId}/bot_users`).set(auth()).expect(status);
  const groups = (status: number) => api().get(`/v1/chat_endpoints/${ceId}/question_groups`).set(auth()).expect(status);
  const overview = (status: number) =>
    api()
      .get(`/v1/reports/${ceId}/overview`)
      .query({ tz: 'UTC', startDate: '2026-01-01T00:00:00', endDate: '2026-01-31T23:59:59' })
      .set(auth())
      .expect(status);
  const visitorTriggers = async () => {
    const ce = await server.models.ChatEndpoint.findById(ceId);
    const config = await api().get(`/widget/api/${ce?.Uuid}/config`).expect(200);
    return (config.body.settings.triggers.triggers as { message: string }[]).map((t) => t.message);
  };
  /** Saves a card for Basic during the trial, then ends the trial as Stripe does: the account pays for Basic. */
  const endTrialOnBasic = async () => {
    const { body } = await api()
      .post(`/v1/accounts/${trial.accountId}/create_checkout_session`)
      .set(auth())
      .send({ plan: 'parley_basic_monthly' })
      .expect(200);
    await fetch((await payCheckout(body.url)).location, { redirect: 'manual' });
    await endTrialNow(server, trial.accountId);
  };

  it('lets a new account use bots, triggers, question groups and reports while its trial is billed as Basic', async () => {
    const view = await account();
    expect(view.state).to.equal('trialing');
    expect(view.plan.stripeId).to.equal('parley_basic_monthly');
    expect(view.effectivePlan).to.include({ stripeId: 'parley_business_monthly', bots: true, questionGroups: true, maxOperators: 0 });
    expect(view.switchedOff).to.deep.equal([]);
    expect(view.lowerLimits).to.deep.equal([]);
    await botUsers(200);
    await api().put(`/v1/chat_endpoints/${ceId}/update_config`).set(auth()).send({ triggerJson: TRIGGERS }).expect(200);
    expect(await visitorTriggers()).to.deep.equal(['Need a hand?']);
    await api().post(`/v1/chat_endpoints/${ceId}/question_groups`).set(auth()).send(GROUP).expect(200);
    await overview(200);
  });

  it('after the trial on Basic refuses them, says what was switched off, and keeps the settings for the upgrade', async () => {
    await api().put(`/v1/chat_endpoints/${ceId}/update_config`).set(auth()).send({ triggerJson: TRIGGERS }).expect(200);
    await api().post(`/v1/chat_endpoints/${ceId}/question_groups`).set(auth()).send(GROUP).expect(200);
    await endTrialOnBasic();

    const view = await account();
    expect(view.state).to.equal('paying');
    expect(view.effectivePlan.stripeId).to.equal('parley_basic_monthly');
    expect(view.switchedOff).to.deep.equal(['reports', 'triggers', 'bots', 'question groups', 'white label', 'phone support']);
    expect(view.lowerLimits).to.deep.equal(['3 operators a month', '1 channel', '300 conversations a month']);
    expect((await botUsers(402)).body.Message).to.equal('Your plan does not have access to bots. Please upgrade.');
    expect((await groups(402)).body.Message).to.equal('Your plan does not have access to question groups. Please upgrade.');
    await overview(403);
    expect(await visitorTriggers()).to.deep.equal([]);
    // Kept, not deleted.
    expect(await server.models.QuestionGroup.countDocuments({ accountId: view.Id })).to.equal(1);

    await api().post(`/v1/accounts/${trial.accountId}/upgrade/parley_business_monthly`).set(auth()).expect(200);
    const upgraded = await account();
    expect(upgraded.effectivePlan.stripeId).to.equal('parley_business_monthly');
    expect(upgraded.switchedOff).to.deep.equal([]);
    expect(await visitorTriggers()).to.deep.equal(['Need a hand?']);
    expect((await groups(200)).body.groups.map((g: { label: string }) => g.label)).to.deep.equal(['Triage']);
    await botUsers(200);
    await overview(200);
  });
});
