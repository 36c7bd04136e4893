import { expect } from 'chai';
import { malformedSlackPayload } from '../../server/slack/payloadShapes';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const interactive = (payload: unknown) => form({ payload: JSON.stringify(payload) });
const user = { id: 'U1', name: 'alice', team_id: 'T1' };

describe('Slack payload shapes', () => {
  it('lets payloads of Slack’s own shapes through, and anything it does not check (url_verification, unknown kinds)', () => {
    const event = (e: unknown) => JSON.stringify({ type: 'event_callback', team_id: 'T1', event: e });
    for (const ok of [
      event({ type: 'message', channel: 'C1', user: 'U1', text: 'hi', ts: '1.2', thread_ts: '1.1' }),
      event({ type: 'message', subtype: 'message_changed', channel: 'C1', message: { ts: '1.2', text: 'x' } }),
      event({ type: 'member_joined_channel', channel: 'C1', user: 'U1' }),
      event({ type: 'channel_rename', channel: { id: 'C1', name: 'new', created: 1 } }),
      event({ type: 'tokens_revoked', tokens: { oauth: ['U1'], bot: [] } }),
      event({ type: 'app_home_opened', user: 'U1', tab: 'home' }),
      event({ type: 'app_uninstalled' }),
      event({ type: 'user_change', user: { id: 'U1' } }),
      JSON.stringify({ type: 'url_verification', challenge: 'x' }),
    ]) {
      expect(malformedSlackPayload(ok, 'json'), ok).to.equal(undefined);
    }
    for (const ok of [
      interactive({ type: 'block_actions', user, team: { id: 'T1' }, actions: [{ action_id: 'a', value: 'v' }], channel: { id: 'C1' } }),
      interactive({
        type: 'block_actions',
        user,
        team: null,
        actions: [{ action_id: 'a', selected_option: { value: 'v' } }],
        view: { id: 'V1' },
      }),
      interactive({
        type: 'view_submission',
        user,
        view: { id: 'V1', callback_id: 'c', private_metadata: '', state: { values: { b: { a: { type: 'x' } } } } },
      }),
      interactive({ type: 'shortcut', user, callback_id: 'c', trigger_id: 't' }),
      interactive({ type: 'message_action', user, callback_id: 'c', trigger_id: 't', channel: { id: 'C1' }, message: { ts: '1.2' } }),
      form({ command: '/parley', team_id: 'T1', user_id: 'U1', channel_id: 'C1', text: '' }),
      form({ ssl_check: '1' }),
    ]) {
      expect(malformedSlackPayload(ok, 'form'), ok).to.equal(undefined);
    }
  });

  it('names what breaks the shape', () => {
    expect(
      malformedSlackPayload(
        JSON.stringify({ type: 'event_callback', event: { type: 'member_joined_channel', channel: null, user: 'U1' } }),
        'json',
      ),
    ).to.include('channel');
    expect(malformedSlackPayload(interactive({ type: 'block_actions', user, actions: null }), 'form')).to.include('actions');
    expect(malformedSlackPayload(interactive({ type: 'view_submission', user: null, view: {} }), 'form')).to.include('user');
    expect(malformedSlackPayload(form({ payload: '{nope' }), 'form')).to.equal('interactive payload: not JSON');
    expect(malformedSlackPayload(form({ command: '/parley', team_id: 'T1' }), 'form')).to.include('slash command');
  });
});
