/**
 * Correctly signed requests whose payloads break Slack's own shapes, for every kind Parley listens to (the
 * events, actions, shortcuts, view callbacks and slash commands `registeredListeners()` lists, so a listener
 * added later is covered without editing this spec). Each must be acknowledged without a 5xx: Slack retries
 * failed deliveries and turns event delivery off for an app that keeps failing.
 */
import { expect } from 'chai';
import request from 'supertest';
import { registeredListeners } from '../../server/slack';
import { isSlackResponseUrl, UNREADABLE_REQUEST } from '../../server/slack/payloadShapes';
import { ACME, ALICE, eventually, setUpRelayWidget, useRelayServer } from '../relay/helpers';
import { eventEnvelope, slackSignature } from './helpers';

/** Values that break the type of whatever field they replace. */
const WRONG = [null, 5, {}, [], '', true];
/** Fields Slack sends in events, actions, views and shortcuts, replaced one at a time. */
const EVENT_FIELDS = [
  'channel',
  'user',
  'text',
  'ts',
  'thread_ts',
  'channel_type',
  'subtype',
  'tab',
  'tokens',
  'files',
  'bot_id',
  'edited',
  'message',
];

describe('signed malformed Slack payloads of every kind Parley listens to', function () {
  this.timeout(600_000);
  // Each request here is one Parley logs a warning about ("Ignored a Slack request whose payload breaks Slack’s
  // shapes"), some 1,600 of them: errors only, so the suite's output keeps what a reader needs.
  const server = useRelayServer({ logLevel: 'error' });
  let channel = '';
  before(async () => {
    ({ channel } = await setUpRelayWidget(server));
  });
  const listeners = registeredListeners();

  const post = (body: string, type: string) =>
    request(server.url)
      .post('/slack/events')
      .set(slackSignature(server.config.slack.signingSecret, body))
      .set('Content-Type', type)
      .send(body);
  const postJson = (body: string) => post(body, 'application/json');
  const postPayload = (payload: unknown) =>
    post(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), 'application/x-www-form-urlencoded');

  async function expectNo5xx(cases: { label: string; send: () => request.Test }[]) {
    const failures: string[] = [];
    for (const { label, send } of cases) {
      const res = await send();
      if (res.status >= 500) failures.push(`${label} → ${res.status}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  }

  it('events: a field of the wrong type or missing, in each event type', async () => {
    const types = [...new Set(listeners.events)];
    const cases: { label: string; send: () => request.Test }[] = [];
    for (const type of types) {
      const valid = { type, channel, user: ALICE, text: 'hi', ts: '1700000000.000100', event_ts: '1700000000.000100' };
      cases.push({ label: `${type} with only its type`, send: () => postJson(eventEnvelope(ACME, { type })) });
      for (const field of EVENT_FIELDS) {
        for (const wrong of WRONG) {
          cases.push({
            label: `${type} with ${field}=${JSON.stringify(wrong)}`,
            send: () => postJson(eventEnvelope(ACME, { ...valid, [field]: wrong })),
          });
        }
      }
    }
    cases.push({
      label: 'an event_callback without an event',
      send: () => postJson(JSON.stringify({ type: 'event_callback', team_id: ACME })),
    });
    cases.push({ label: 'an event that is null', send: () => postJson(eventEnvelope(ACME, null as unknown as Record<string, unknown>)) });
    await expectNo5xx(cases);
  });

  const base = () => ({
    team: { id: ACME, domain: 'acme' },
    user: { id: ALICE, name: 'alice', team_id: ACME },
    api_app_id: 'A0PARLEY01',
    token: 'ignored',
    trigger_id: '1.2.3',
    is_enterprise_install: false,
  });

  it('block_actions: null or malformed actions, container, channel, message and view, for each action', async () => {
    const cases: { label: string; send: () => request.Test }[] = [];
    cases.push({ label: 'actions null', send: () => postPayload({ ...base(), type: 'block_actions', actions: null }) });
    cases.push({ label: 'actions {}', send: () => postPayload({ ...base(), type: 'block_actions', actions: {} }) });
    cases.push({ label: 'actions [null]', send: () => postPayload({ ...base(), type: 'block_actions', actions: [null] }) });
    for (const actionId of listeners.actions) {
      const action = { action_id: actionId, block_id: 'b', type: 'button', value: 'x', action_ts: '1' };
      const good = {
        ...base(),
        type: 'block_actions',
        actions: [action],
        container: { type: 'message', channel_id: channel, message_ts: '1700000000.000100' },
        channel: { id: channel, name: 'support' },
        message: { ts: '1700000000.000100', thread_ts: '1700000000.000100', text: 'x' },
        response_url: `${server.url}/nowhere`,
      };
      for (const field of ['container', 'channel', 'message', 'view', 'user', 'response_url', 'state']) {
        for (const wrong of WRONG) {
          cases.push({ label: `${actionId} with ${field}=${JSON.stringify(wrong)}`, send: () => postPayload({ ...good, [field]: wrong }) });
        }
      }
      for (const [field, wrong] of [
        ['value', null],
        ['value', {}],
        ['value', 'not-json{'],
        ['selected_option', null],
        ['selected_option', { value: null }],
      ] as const) {
        cases.push({
          label: `${actionId} with action.${field}=${JSON.stringify(wrong)}`,
          send: () => postPayload({ ...good, actions: [{ ...action, [field]: wrong }] }),
        });
      }
    }
    await expectNo5xx(cases);
  });

  it('view_submission and view_closed: a missing or malformed view, state and private metadata, for each callback', async () => {
    const cases: { label: string; send: () => request.Test }[] = [];
    cases.push({ label: 'view null', send: () => postPayload({ ...base(), type: 'view_submission', view: null }) });
    for (const callbackId of listeners.views) {
      const view = { id: 'V0NOPE', callback_id: callbackId, private_metadata: '{}', state: { values: {} }, hash: 'h', team_id: ACME };
      for (const field of ['private_metadata', 'state', 'id', 'hash']) {
        for (const wrong of [...WRONG, 'not-json{', '{"conversationId":{"$gt":""}}']) {
          cases.push({
            label: `${callbackId} with view.${field}=${JSON.stringify(wrong)}`,
            send: () => postPayload({ ...base(), type: 'view_submission', view: { ...view, [field]: wrong } }),
          });
        }
      }
      cases.push({
        label: `${callbackId} with state values of the wrong shape`,
        send: () => postPayload({ ...base(), type: 'view_submission', view: { ...view, state: { values: { a: null, b: { c: null } } } } }),
      });
      cases.push({
        label: `${callbackId} without a user`,
        send: () => postPayload({ ...base(), type: 'view_submission', user: null, view }),
      });
    }
    await expectNo5xx(cases);
  });

  it('shortcuts and message shortcuts: a missing or malformed message, channel and user, for each callback', async () => {
    const cases: { label: string; send: () => request.Test }[] = [];
    for (const callbackId of listeners.shortcuts) {
      for (const type of ['message_action', 'shortcut']) {
        const good = {
          ...base(),
          type,
          callback_id: callbackId,
          channel: { id: channel, name: 'support' },
          message: { ts: '1700000000.000100', text: 'x' },
          message_ts: '1700000000.000100',
          response_url: `${server.url}/nowhere`,
        };
        for (const field of ['message', 'channel', 'user', 'message_ts', 'trigger_id', 'team']) {
          for (const wrong of WRONG) {
            cases.push({
              label: `${type} ${callbackId} with ${field}=${JSON.stringify(wrong)}`,
              send: () => postPayload({ ...good, [field]: wrong }),
            });
          }
        }
      }
    }
    await expectNo5xx(cases);
  });

  it('slash commands: missing fields and odd text, for each command', async () => {
    const cases: { label: string; send: () => request.Test }[] = [];
    for (const command of listeners.commands) {
      const good: Record<string, string> = {
        token: 'ignored',
        team_id: ACME,
        team_domain: 'acme',
        channel_id: channel,
        channel_name: 'support',
        user_id: ALICE,
        user_name: 'alice',
        command,
        text: 'help',
        api_app_id: 'A0PARLEY01',
        response_url: `${server.url}/nowhere`,
        trigger_id: '1.2.3',
      };
      for (const field of ['text', 'channel_id', 'user_id', 'response_url', 'trigger_id']) {
        const { [field]: _dropped, ...rest } = good;
        cases.push({
          label: `${command} without ${field}`,
          send: () => post(new URLSearchParams(rest).toString(), 'application/x-www-form-urlencoded'),
        });
      }
      for (const text of ['%E0%A4%A', '\u0000', 'x'.repeat(20_000), 'online now extra words', '<!channel>']) {
        cases.push({
          label: `${command} ${JSON.stringify(text.slice(0, 20))}`,
          send: () => post(new URLSearchParams({ ...good, text }).toString(), 'application/x-www-form-urlencoded'),
        });
      }
    }
    await expectNo5xx(cases);
  });

  it('tells the person who sent an unreadable command or action why nothing happened, only to them', async () => {
    const command = new URLSearchParams({ team_id: ACME, user_id: ALICE, command: listeners.commands[0], text: 'status' });
    const answer = await post(command.toString(), 'application/x-www-form-urlencoded').expect(200);
    expect(answer.body).to.deep.equal({ response_type: 'ephemeral', text: UNREADABLE_REQUEST });

    const responseUrl = server.slack.responseUrl({ teamId: ACME, userId: ALICE, channelId: channel });
    const before = server.slack.state.responses.length;
    await postPayload({ ...base(), type: 'block_actions', actions: null, response_url: responseUrl }).expect(200);
    await eventually(async () => {
      const told = server.slack.state.responses.slice(before);
      expect(told.map((r) => [r.user, r.body.text, r.body.response_type])).to.deep.equal([[ALICE, UNREADABLE_REQUEST, 'ephemeral']]);
    });
  });

  it('answers only on a response_url of Slack (or of the Slack-compatible server Parley is set up with)', () => {
    const api = 'http://127.0.0.1:4000/sandbox/slack/api/';
    expect(isSlackResponseUrl('https://hooks.slack.com/actions/T1/2/x', 'https://slack.com/api/')).to.equal(true);
    expect(isSlackResponseUrl('http://127.0.0.1:4000/sandbox/slack/response/T1/2/x', api)).to.equal(true);
    expect(isSlackResponseUrl('http://hooks.slack.com/actions/T1/2/x', 'https://slack.com/api/')).to.equal(false);
    expect(isSlackResponseUrl('https://evil.example/hook', 'https://slack.com/api/')).to.equal(false);
    expect(isSlackResponseUrl('http://127.0.0.1:4001/x', api)).to.equal(false);
    expect(isSlackResponseUrl('not a url', api)).to.equal(false);
  });
});
