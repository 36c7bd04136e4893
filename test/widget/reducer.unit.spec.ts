/**
 * The widget panel's frame reducer, without a DOM or a socket: what the visitor is shown (and what is sent,
 * stored and announced) for each server frame, after a reconnect, for duplicates and for frames out of order.
 */
import { expect } from 'chai';
import type { ChatMessage, ServerFrame } from '../../server/shared/widget-protocol';
import type { StoredState } from '../../web/widget/lib/types';
import {
  type Action,
  contiguousSeq,
  type Effect,
  initialState,
  keyOf,
  needsSocket,
  type PanelState,
  reduceAction,
  reduceFrame,
  screenFor,
  wantsSuggestions,
} from '../../web/widget/panel/reducer';

const TOKEN = 'visitor-token-0123456789';

function message(seq: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    seq,
    id: `m${seq}`,
    from: 'operator',
    text: `reply ${seq}`,
    at: '2026-11-23T21:00:00.000Z',
    author: { name: 'Alice' },
    ...overrides,
  };
}

const msg = (seq: number, overrides: Partial<ChatMessage> = {}): ServerFrame => ({ t: 'msg', message: message(seq, overrides) });

function welcome(
  lastSeq: number | null,
  overrides: { online?: boolean; status?: 'open' | 'ended'; token?: string; rated?: boolean } = {},
): ServerFrame {
  return {
    t: 'welcome',
    visitorToken: overrides.token ?? TOKEN,
    online: overrides.online ?? true,
    conversation:
      lastSeq === null
        ? null
        : { id: 'c1', number: 1, status: overrides.status ?? 'open', lastSeq, ...(overrides.rated ? { rated: true } : {}) },
  };
}

type Input = ServerFrame | Action;
const isAction = (input: Input): input is Action => 'a' in input;

/** Runs inputs through the reducer; answers the last state and every effect, in order. */
function run(state: PanelState, ...inputs: Input[]): { state: PanelState; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const input of inputs) {
    const step = isAction(input) ? reduceAction(state, input) : reduceFrame(state, input);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

const fresh = (stored: StoredState = { token: TOKEN }, online = true): PanelState => initialState(stored, online, false);
const shown = (effects: Effect[]) => effects.flatMap((e) => (e.k === 'message' ? [e.message.seq] : []));
const sent = (effects: Effect[]) => effects.flatMap((e) => (e.k === 'send' ? [e.frame] : []));
const of = <K extends Effect['k']>(effects: Effect[], k: K) => effects.filter((e): e is Extract<Effect, { k: K }> => e.k === k);

/** A page that loaded, got its welcome for an open conversation whose history ends at `lastSeq`, and replayed it. */
function resumed(lastSeq: number): PanelState {
  const history = Array.from({ length: lastSeq }, (_, i) => msg(i + 1));
  return run(fresh(), { a: 'expand' }, welcome(lastSeq), ...history).state;
}

describe('widget panel reducer', () => {
  describe('welcome', () => {
    it('stores the visitor token, says whether a conversation is ongoing and hides any error banner', () => {
      const { state, effects } = run(fresh({}), welcome(3));
      expect(state.stored).to.include({ token: TOKEN, ongoing: true });
      expect(of(effects, 'save')[0]?.patch).to.deep.equal({ token: TOKEN, ongoing: true });
      expect(state.conversation).to.deep.equal({ id: 'c1', status: 'open' });
      expect(state.historyUntil).to.equal(3);
      expect(effects).to.deep.include({ k: 'banner' });
      expect(effects.at(-1)).to.deep.equal({ k: 'render', rebuild: false });
    });

    it('sends the frames held while disconnected and resends unacknowledged messages with their clientId', () => {
      const pending = [{ clientId: 'client-aaaa1', text: 'still there?' }];
      let state = fresh({ token: TOKEN, pending });
      const held = run(state, { a: 'hold', frame: { t: 'info', acceptedPrivacy: true } });
      expect(held.effects).to.deep.equal([{ k: 'connect' }]);
      state = held.state;
      const { effects, state: after } = run(state, welcome(0));
      expect(sent(effects)).to.deep.equal([
        { t: 'info', acceptedPrivacy: true },
        { t: 'msg', clientId: 'client-aaaa1', text: 'still there?' },
      ]);
      expect(effects).to.deep.include({ k: 'pending', clientId: 'client-aaaa1', text: 'still there?', autoAck: false });
      expect(after.waiting).to.deep.equal([]);
    });

    it('closes the socket again when nothing needs it (collapsed, no conversation, nothing pending)', () => {
      const { effects } = run(fresh(), welcome(null));
      expect(effects).to.deep.include({ k: 'disconnect' });
      const open = run(fresh(), { a: 'expand' }, welcome(null));
      expect(open.effects).to.not.deep.include({ k: 'disconnect' });
    });

    it('clears what was shown when the server answers with another visitor token', () => {
      const state = resumed(2);
      const { state: after, effects } = run(state, welcome(null, { token: 'another-visitor-token-123' }));
      expect(effects).to.deep.include({ k: 'clearView' });
      expect(after).to.include({ lastSeq: 0, conversation: null });
      expect(after.seen).to.deep.equal([]);
      expect(after.stored.token).to.equal('another-visitor-token-123');
    });

    it('follows presence: going offline redraws the look and tells the loader', () => {
      const { state, effects } = run(fresh(), welcome(null, { online: false }));
      expect(state.online).to.equal(false);
      expect(effects).to.deep.include({ k: 'online', online: false });
    });
  });

  describe('resume after a reconnect', () => {
    it('shows the history replayed after the first welcome quietly: no event, no chime, no unread count', () => {
      const { effects, state } = run(fresh(), welcome(2), msg(1), msg(2));
      expect(shown(effects)).to.deep.equal([1, 2]);
      expect(of(effects, 'message').map((e) => e.fresh)).to.deep.equal([false, false]);
      expect(of(effects, 'emit')).to.deep.equal([]);
      expect(of(effects, 'chime')).to.deep.equal([]);
      expect(state.unread).to.equal(0);
      expect(state.lastSeq).to.equal(2);
    });

    it('keeps lastSeq across reconnects, so the next hello asks only for what came after it', () => {
      const state = resumed(3);
      const { state: after, effects } = run(state, welcome(5), msg(4), msg(5));
      expect(after.lastSeq).to.equal(5);
      expect(shown(effects)).to.deep.equal([4, 5]);
      // The welcome of a reconnect is not the page's first: what it replays is news.
      expect(of(effects, 'message').map((e) => e.fresh)).to.deep.equal([true, true]);
      expect(after.historyUntil).to.equal(3);
    });

    it('counts operator replies that arrive while the panel is collapsed, and announces each', () => {
      const collapsed = run(resumed(1), { a: 'collapse' }).state;
      const { state, effects } = run(collapsed, msg(2), msg(3, { from: 'visitor', text: 'me', author: undefined }), msg(4));
      expect(state.unread).to.equal(2);
      expect(of(effects, 'unread').map((e) => e.count)).to.deep.equal([1, 2]);
      expect(of(effects, 'chime')).to.deep.equal([
        { k: 'chime', ifPageHidden: false },
        { k: 'chime', ifPageHidden: false },
      ]);
      expect(of(effects, 'emit').map((e) => e.detail)).to.deep.equal([
        { text: 'reply 2', author: 'Alice' },
        { text: 'reply 4', author: 'Alice' },
      ]);
      const opened = run(state, { a: 'expand' });
      expect(opened.state.unread).to.equal(0);
      expect(opened.effects).to.deep.include({ k: 'unread', count: 0 });
    });
  });

  describe('duplicates', () => {
    it('shows a message delivered twice once', () => {
      const { effects } = run(resumed(1), msg(2), msg(2));
      expect(shown(effects)).to.deep.equal([2]);
    });

    it('ignores a replay of what is already shown after a reconnect that lost lastSeq on the way', () => {
      const state = resumed(3);
      const { effects } = run(state, welcome(3), msg(1), msg(2), msg(3));
      expect(shown(effects)).to.deep.equal([]);
    });

    it('applies an edit, a delete, an end, an e-mail question and a question group only once', () => {
      const state = resumed(1);
      const question: ServerFrame = { t: 'question', seq: 6, groupUid: 'g1', nodeId: 'n1', text: 'Which plan?', answers: [] };
      const frames: ServerFrame[] = [
        { t: 'edit', seq: 2, id: 'm1', text: 'fixed' },
        { t: 'delete', seq: 3, id: 'm1' },
        { t: 'askEmail', seq: 4 },
        question,
        { t: 'ended', seq: 7, by: 'operator' },
      ];
      const { effects } = run(state, ...frames, ...frames);
      expect(effects.filter((e) => ['edit', 'remove', 'askEmail', 'question', 'ended'].includes(e.k)).map((e) => e.k)).to.deep.equal([
        'edit',
        'remove',
        'askEmail',
        'question',
        'ended',
      ]);
    });
  });

  describe('out of order', () => {
    /** The texts of the messages shown, in the order the log puts them (by key). */
    const inLogOrder = (effects: Effect[]) =>
      of(effects, 'message')
        .sort((x, y) => x.key - y.key)
        .map((e) => e.message.text);

    it('shows a late frame below lastSeq in its place by seq, without lowering lastSeq or waiting for the gap', () => {
      const state = resumed(1);
      const { state: after, effects } = run(state, msg(4), msg(2), msg(3));
      expect(shown(effects)).to.deep.equal([4, 2, 3]);
      expect(of(effects, 'message').map((e) => e.key)).to.deep.equal([keyOf(after, 4), keyOf(after, 2), keyOf(after, 3)]);
      expect(after.lastSeq).to.equal(4);
      expect(sent(effects)).to.deep.equal([]);
    });

    it("places operator replies in Slack's order when a reply was stored after a later one", () => {
      const state = resumed(1);
      // Slack delivered R4's event (ts …04) first, then R3 (…03), then R2 (…02); the visitor wrote in between.
      const { effects } = run(
        state,
        msg(2, { id: 'r4', text: 'R4', ts: '1700000000.000004' }),
        msg(3, { id: 'v', from: 'visitor', text: 'hi' }),
        msg(4, { id: 'r3', text: 'R3', ts: '1700000000.000003' }),
        msg(5, { id: 'r2', text: 'R2', ts: '1700000000.000002' }),
        msg(6, { id: 'r5', text: 'R5', ts: '1700000000.000005' }),
      );
      expect(inLogOrder(effects)).to.deep.equal(['R2', 'R3', 'R4', 'hi', 'R5']);
    });

    it("places a late-filled gap in Slack's order too: a reply numbered before an earlier one but reaching the socket after it", () => {
      const state = resumed(1);
      // R1 (ts …01) was stored after R2 (…02): R2 has seq 2, R1 seq 3. R1's frame came live, R2's only when a
      // replay filled the gap (a frame lost between processes), so R2 arrives last with the lower seq.
      const { effects } = run(
        state,
        msg(3, { id: 'r1', text: 'R1', ts: '1700000000.000001' }),
        msg(4, { id: 'v', from: 'visitor', text: 'hi' }),
        msg(2, { id: 'r2', text: 'R2', ts: '1700000000.000002' }),
        msg(5, { id: 'r3', text: 'R3', ts: '1700000000.000003' }),
      );
      expect(inLogOrder(effects)).to.deep.equal(['R1', 'R2', 'hi', 'R3']);
    });

    it('asks a new socket to replay after the last seq it has without a gap, not after the highest', () => {
      const state = resumed(2);
      const { state: after } = run(state, msg(5), msg(3));
      expect(after.lastSeq).to.equal(5);
      expect(contiguousSeq(after.seen)).to.equal(3);
      expect(contiguousSeq(run(after, msg(4)).state.seen)).to.equal(5);
    });
  });

  describe("the visitor's own messages", () => {
    it('sends a message with its clientId, keeps it pending in storage and confirms it on ack', () => {
      const state = run(fresh(), { a: 'expand' }, welcome(null)).state;
      const typed = run(state, { a: 'send', text: '  Hello there  ', clientId: 'client-bbbb1' });
      expect(sent(typed.effects)).to.deep.equal([{ t: 'msg', clientId: 'client-bbbb1', text: 'Hello there' }]);
      expect(typed.state.stored.pending).to.deep.equal([{ clientId: 'client-bbbb1', text: 'Hello there' }]);
      expect(typed.effects).to.deep.include({ k: 'pending', clientId: 'client-bbbb1', text: 'Hello there', autoAck: true });
      expect(typed.effects).to.deep.include({ k: 'emit', name: 'firstMessageSent', detail: { text: 'Hello there' } });
      expect(typed.effects).to.deep.include({ k: 'noAnswer', arm: true });
      expect(typed.state.conversation).to.deep.equal({ id: '', status: 'open' });

      const acked = run(typed.state, { t: 'ack', clientId: 'client-bbbb1', seq: 1, id: 'm1', at: '2026-11-23T21:00:00.000Z' });
      expect(acked.effects).to.deep.include({ k: 'confirm', clientId: 'client-bbbb1', id: 'm1', key: 1, first: true });
      expect(acked.state.stored.pending).to.deep.equal([]);
      expect(acked.state.startedLocally).to.equal(false);
      // The replayed copy of the acknowledged message is not shown a second time.
      const replayed = run(acked.state, msg(1, { from: 'visitor', clientId: 'client-bbbb1', text: 'Hello there' }));
      expect(shown(replayed.effects)).to.deep.equal([]);
    });

    it('confirms a pending message by the replayed msg echoing its clientId when the ack was lost', () => {
      const state = run(resumed(1), { a: 'send', text: 'lost ack', clientId: 'client-cccc1' }).state;
      const { effects, state: after } = run(state, welcome(2), msg(2, { from: 'visitor', clientId: 'client-cccc1', text: 'lost ack' }));
      expect(effects).to.deep.include({ k: 'confirm', clientId: 'client-cccc1', id: 'm2', key: 2 });
      expect(shown(effects)).to.deep.equal([]);
      expect(after.stored.pending).to.deep.equal([]);
    });

    it('refuses an empty message and an over-long one before sending anything', () => {
      expect(run(fresh(), { a: 'send', text: '   ', clientId: 'client-dddd1' }).effects).to.deep.equal([]);
      const long = run(fresh(), { a: 'send', text: 'x'.repeat(4001), clientId: 'client-dddd2' });
      expect(long.effects).to.deep.equal([{ k: 'banner', code: 'too_large' }]);
    });

    it('starts a new round after an ended conversation, so the new conversation’s seq 1, 2 are shown after the old ones', () => {
      const ended = run(resumed(2), { t: 'ended', seq: 3, by: 'operator' }).state;
      const typed = run(ended, { a: 'send', text: 'one more thing', clientId: 'client-eeee1' });
      expect(typed.effects).to.deep.include({ k: 'pending', clientId: 'client-eeee1', text: 'one more thing', autoAck: true });
      const { effects, state } = run(
        typed.state,
        { t: 'ack', clientId: 'client-eeee1', seq: 1, id: 'n1', at: '2026-11-23T21:00:00.000Z' },
        msg(2, { id: 'n2', text: 'sure' }),
      );
      expect(shown(effects)).to.deep.equal([2]);
      const keys = [...of(effects, 'confirm').map((e) => e.key), ...of(effects, 'message').map((e) => e.key)];
      expect(Math.min(...keys)).to.be.greaterThan(keyOf(ended, 3));
      expect(of(effects, 'message')[0]?.fresh).to.equal(true);
      expect(state.conversation?.status).to.equal('open');
    });

    it('keeps the ended conversation’s lastSeq until the next one’s first message is acknowledged, so a reconnect replays nothing twice', () => {
      const ended = run(resumed(2), { t: 'ended', seq: 3, by: 'operator' }).state;
      const typed = run(ended, { a: 'send', text: 'are you there?', clientId: 'client-kkkk1' }).state;
      expect(typed.lastSeq).to.equal(3);
      // The socket dropped before the message was stored: the welcome still names the ended conversation.
      const { effects, state } = run(typed, welcome(3, { status: 'ended' }), msg(2), { t: 'ended', seq: 3, by: 'operator' });
      expect(shown(effects)).to.deep.equal([]);
      expect(of(effects, 'ended')).to.deep.equal([]);
      expect(sent(effects)).to.deep.include({ t: 'msg', clientId: 'client-kkkk1', text: 'are you there?' });
      const acked = run(state, { t: 'ack', clientId: 'client-kkkk1', seq: 1, id: 'n1', at: '2026-11-23T21:00:00.000Z' });
      expect(acked.state).to.include({ round: 1, lastSeq: 1 });
    });
  });

  describe('a conversation started in another tab', () => {
    it('follows the conversation frame into a new round: its seq 1 and 2 are shown after the ended one', () => {
      const ended = run(resumed(2), { t: 'ended', seq: 3, by: 'operator' }).state;
      const { effects, state } = run(
        ended,
        { t: 'conversation', id: 'c2' },
        msg(1, { id: 'n1', from: 'visitor', text: 'typed in the other tab', clientId: 'client-other1' }),
        msg(2, { id: 'n2', text: 'hello again' }),
      );
      expect(shown(effects)).to.deep.equal([1, 2]);
      expect(Math.min(...of(effects, 'message').map((e) => e.key))).to.be.greaterThan(keyOf(ended, 3));
      expect(state.conversation).to.deep.equal({ id: 'c2', status: 'open' });
      expect(state.stored.ongoing).to.equal(true);
      expect(state).to.include({ round: 1, lastSeq: 2 });
    });

    it('ignores a conversation frame naming the conversation already shown, and opens no round before anything was shown', () => {
      const open = resumed(2);
      expect(run(open, { t: 'conversation', id: 'c1' }).state).to.include({ round: 0, lastSeq: 2 });
      const first = run(run(fresh(), welcome(null)).state, { t: 'conversation', id: 'c1' }, msg(1)).state;
      expect(first).to.include({ round: 0, lastSeq: 1 });
      expect(first.conversation).to.deep.equal({ id: 'c1', status: 'open' });
    });

    it('takes a welcome naming a newer conversation as a new round', () => {
      const ended = run(resumed(2), { t: 'ended', seq: 3, by: 'operator' }).state;
      const newer: ServerFrame = {
        t: 'welcome',
        visitorToken: TOKEN,
        online: true,
        conversation: { id: 'c2', number: 2, status: 'open', lastSeq: 1 },
      };
      const { effects, state } = run(ended, newer, msg(1, { id: 'n1', text: 'from the other tab' }));
      expect(shown(effects)).to.deep.equal([1]);
      expect(state.conversation).to.deep.equal({ id: 'c2', status: 'open' });
      expect(state).to.include({ round: 1, lastSeq: 1 });
    });
  });

  describe('each other server frame', () => {
    it('edit: rewrites the message by id, with its formatted html when there is one', () => {
      const { effects } = run(resumed(1), { t: 'edit', seq: 2, id: 'm1', text: 'new', html: '<b>new</b>' });
      expect(effects).to.deep.equal([{ k: 'edit', id: 'm1', text: 'new', html: '<b>new</b>' }]);
    });

    it('delete: removes the message by id', () => {
      expect(run(resumed(1), { t: 'delete', seq: 2, id: 'm1' }).effects).to.deep.equal([{ k: 'remove', id: 'm1' }]);
    });

    it('presence: follows online and offline and picks the screen again', () => {
      const { state, effects } = run(resumed(0), { t: 'presence', online: false });
      expect(state.online).to.equal(false);
      expect(effects).to.deep.equal([{ k: 'online', online: false }, { k: 'look' }, { k: 'render', rebuild: false }]);
      expect(run(state, { t: 'presence', online: false }).effects).to.deep.equal([{ k: 'render', rebuild: false }]);
    });

    it("typing: shows and hides the operator's typing line with their name", () => {
      expect(run(fresh(), { t: 'typing', on: true, author: { name: 'Alice' } }).effects).to.deep.equal([
        { k: 'typing', on: true, author: 'Alice' },
      ]);
      expect(run(fresh(), { t: 'typing', on: false }).effects).to.deep.equal([{ k: 'typing', on: false }]);
    });

    it('ended: closes the conversation, stops the no-answer timer, forgets ongoing and announces it once', () => {
      const { state, effects } = run(resumed(1), { t: 'ended', seq: 2, by: 'visitor' });
      expect(state.conversation?.status).to.equal('ended');
      expect(state.stored.ongoing).to.equal(false);
      expect(effects).to.deep.include({ k: 'noAnswer', arm: false });
      expect(effects).to.deep.include({ k: 'ended', key: 2, by: 'visitor', fresh: true, rated: false });
      expect(effects).to.deep.include({ k: 'emit', name: 'conversationEnded', detail: { by: 'visitor' } });
    });

    it('ended: in the history of the first welcome (a reload), shows the end card again quietly', () => {
      const { effects } = run(fresh(), welcome(2, { status: 'ended' }), msg(1), { t: 'ended', seq: 2, by: 'inactivity' });
      expect(effects).to.deep.include({ k: 'ended', key: 2, by: 'inactivity', fresh: false, rated: false });
      expect(of(effects, 'emit')).to.deep.equal([]);
    });

    it('ended: after a reload, the card thanks instead of asking again when the welcome says the visitor rated it', () => {
      const { effects } = run(fresh(), welcome(2, { status: 'ended', rated: true }), msg(1), { t: 'ended', seq: 2, by: 'visitor' });
      expect(of(effects, 'ended')).to.deep.equal([{ k: 'ended', key: 2, by: 'visitor', fresh: false, rated: true }]);
    });

    it("msg: the visitor's first message, replayed after a reload or seen from another tab, brings back the automatic response", () => {
      const history = run(
        fresh(),
        welcome(3),
        msg(1, { from: 'visitor', text: 'hello', author: undefined }),
        msg(2),
        msg(3, { from: 'visitor', text: 'thanks', author: undefined }),
      );
      expect(of(history.effects, 'message').map((e) => [e.message.seq, e.first === true])).to.deep.equal([
        [1, true],
        [2, false],
        [3, false],
      ]);
      // Sent before the reload but not acknowledged: its echo confirms the pending bubble, the first one of its conversation.
      const pending = fresh({ token: TOKEN, pending: [{ clientId: 'client-ffff1', text: 'hello' }] });
      const echoed = run(pending, welcome(1), msg(1, { from: 'visitor', text: 'hello', clientId: 'client-ffff1', author: undefined }));
      expect(of(echoed.effects, 'confirm')).to.deep.equal([{ k: 'confirm', clientId: 'client-ffff1', id: 'm1', key: 1, first: true }]);
    });

    it('askEmail: shows the e-mail prompt at its seq', () => {
      expect(run(resumed(1), { t: 'askEmail', seq: 2 }).effects).to.deep.equal([{ k: 'askEmail', key: 2 }]);
    });

    it('screenshot: shows the request at its seq, once (a replay of the same seq draws nothing)', () => {
      const asked = run(resumed(1), { t: 'screenshot', seq: 2, id: 'r1' });
      expect(asked.effects).to.deep.equal([{ k: 'screenshot', key: 2, id: 'r1' }]);
      expect(run(asked.state, { t: 'screenshot', seq: 2, id: 'r1' }).effects).to.deep.equal([]);
    });

    it('question: shows the question group step with its answers', () => {
      const question: ServerFrame = {
        t: 'question',
        seq: 2,
        groupUid: 'g1',
        nodeId: 'n1',
        text: 'Which plan?',
        answers: [{ nodeId: 'n2', text: 'Pro' }],
      };
      expect(run(resumed(1), question).effects).to.deep.equal([{ k: 'question', key: 2, question }]);
    });

    it('config: applies the new settings and draws the screen anew', () => {
      expect(run(fresh(), { t: 'config', config: { onlineTitle: 'Hi' } }).effects).to.deep.equal([
        { k: 'config', config: { onlineTitle: 'Hi' } },
        { k: 'render', rebuild: true },
      ]);
    });

    it('pong: changes nothing', () => {
      const state = fresh();
      expect(reduceFrame(state, { t: 'pong' })).to.deep.equal({ state, effects: [] });
    });

    it('a frame type this panel does not know: ignored', () => {
      const state = fresh();
      const unknown = { t: 'hologram' } as unknown as ServerFrame;
      expect(reduceFrame(state, unknown)).to.deep.equal({ state, effects: [] });
    });
  });

  describe('error frames', () => {
    it("identity_unverified: told to the site's developer in the console, nothing shown to the visitor", () => {
      const state = fresh({});
      const message = 'parley.identify() was ignored: this widget requires a verified identity and the userHash is missing or wrong.';
      const step = reduceFrame(state, { t: 'error', code: 'identity_unverified', message });
      expect(step.effects).to.deep.equal([{ k: 'warn', message }]);
      expect(step.state).to.equal(state);
      // The welcome that follows goes on as for any visitor.
      expect(run(step.state, welcome(null)).state.stored.token).to.equal(TOKEN);
    });

    it('rate_limited for a message: resends it later with the same clientId', () => {
      const state = run(resumed(1), { a: 'send', text: 'fast', clientId: 'client-ffff1' }).state;
      const { effects } = run(state, { t: 'error', code: 'rate_limited', message: 'Slow down', clientId: 'client-ffff1' });
      expect(effects).to.deep.include({ k: 'resendLater', clientId: 'client-ffff1' });
      expect(of(effects, 'fail')).to.deep.equal([]);
      expect(sent(run(state, { a: 'retry', clientId: 'client-ffff1' }).effects)).to.deep.equal([
        { t: 'msg', clientId: 'client-ffff1', text: 'fast' },
      ]);
    });

    it('try_again for a message (the server could not store it): resends it later with the same clientId, not failed', () => {
      const state = run(resumed(1), { a: 'send', text: 'disk full', clientId: 'client-ffff2' }).state;
      const { effects } = run(state, { t: 'error', code: 'try_again', message: 'Not saved', clientId: 'client-ffff2' });
      expect(effects).to.deep.include({ k: 'resendLater', clientId: 'client-ffff2' });
      expect(of(effects, 'fail')).to.deep.equal([]);
    });

    it('refusing the first message of a conversation: marks it failed, and nothing is ongoing', () => {
      const state = run(fresh(), { a: 'expand' }, welcome(null), { a: 'send', text: 'hi', clientId: 'client-gggg1' }).state;
      const { state: after, effects } = run(state, {
        t: 'error',
        code: 'too_many_conversations',
        message: 'Busy',
        clientId: 'client-gggg1',
      });
      expect(effects).to.deep.include({ k: 'fail', clientId: 'client-gggg1', reason: 'Not sent' });
      expect(after.conversation).to.equal(null);
      expect(after.stored.ongoing).to.equal(false);
      expect(effects).to.deep.include({ k: 'banner', code: 'too_many_conversations', message: 'Busy' });
      // The message stays pending: Retry sends it again.
      expect(after.stored.pending).to.deep.equal([{ clientId: 'client-gggg1', text: 'hi' }]);
    });

    it('too_large: marks the message "Too long"', () => {
      const state = run(resumed(1), { a: 'send', text: 'big', clientId: 'client-hhhh1' }).state;
      const { effects } = run(state, { t: 'error', code: 'too_large', message: 'Too big', clientId: 'client-hhhh1' });
      expect(effects).to.deep.include({ k: 'fail', clientId: 'client-hhhh1', reason: 'Too long' });
    });

    it('info_required and privacy_not_accepted: ask again for details and consent', () => {
      const state = fresh({ token: TOKEN, infoGiven: true, accepted: true });
      expect(run(state, { t: 'error', code: 'info_required', message: '' }).state.stored.infoGiven).to.equal(false);
      expect(run(state, { t: 'error', code: 'privacy_not_accepted', message: '' }).state.stored.accepted).to.equal(false);
    });

    it('widget_offline: goes offline', () => {
      expect(run(fresh(), { t: 'error', code: 'widget_offline', message: '' }).state.online).to.equal(false);
    });

    it('unknown_widget and not_allowed_here: stop the socket for good', () => {
      for (const code of ['unknown_widget', 'not_allowed_here']) {
        const { state, effects } = run(resumed(0), { t: 'error', code, message: '' });
        expect(state.fatal).to.equal(true);
        expect(effects).to.deep.include({ k: 'disconnect' });
        expect(needsSocket(state)).to.equal(false);
        expect(run(state, { a: 'expand' }).effects).to.not.deep.include({ k: 'connect' });
      }
    });

    it('conversation_ended: marks the conversation ended and shows why', () => {
      const { state, effects } = run(resumed(1), { t: 'error', code: 'conversation_ended', message: 'Ended' });
      expect(state.conversation?.status).to.equal('ended');
      expect(effects.slice(-2)).to.deep.equal([
        { k: 'banner', code: 'conversation_ended', message: 'Ended' },
        { k: 'render', rebuild: true },
      ]);
    });
  });

  describe('visitor actions', () => {
    it('a frame sent while disconnected waits for the next welcome', () => {
      const { effects } = run(fresh(), { a: 'queue', frame: { t: 'end' } });
      expect(effects).to.deep.equal([{ k: 'send', frame: { t: 'end' }, hold: true }]);
    });

    it('accepting the privacy notice and giving details are stored and sent', () => {
      const accepted = run(fresh(), { a: 'accept' });
      expect(accepted.state.stored.accepted).to.equal(true);
      expect(sent(accepted.effects)).to.deep.equal([{ t: 'info', acceptedPrivacy: true }]);
      const details = run(accepted.state, { a: 'details', name: 'Jane', email: 'jane@example.com' });
      expect(details.state).to.include({ knownEmail: 'jane@example.com' });
      expect(details.state.stored.infoGiven).to.equal(true);
      expect(sent(details.effects)).to.deep.equal([{ t: 'info', name: 'Jane', email: 'jane@example.com' }]);
    });

    it('nobody answered in time: offers the e-mail prompt, or says we will write when the e-mail is known', () => {
      const waiting = run(resumed(0), { a: 'send', text: 'anyone?', clientId: 'client-iiii1' }).state;
      expect(run(waiting, { a: 'noAnswerDue' }).effects).to.deep.equal([{ k: 'noAnswerNotice', withEmail: false }]);
      const withEmail = run(waiting, { a: 'email', email: 'jane@example.com' }).state;
      expect(run(withEmail, { a: 'noAnswerDue' }).effects).to.deep.equal([{ k: 'noAnswerNotice', withEmail: true }]);
      const answered = run(waiting, msg(1)).state;
      expect(run(answered, { a: 'noAnswerDue' }).effects).to.deep.equal([]);
    });

    it("another tab's reset resets this tab; its other changes keep this tab's pending messages", () => {
      const pending = [{ clientId: 'client-jjjj1', text: 'mine' }];
      const state = fresh({ token: TOKEN, pending });
      const other = run(state, { a: 'storage', stored: { token: TOKEN, accepted: true } });
      expect(other.state.stored).to.deep.equal({ token: TOKEN, accepted: true, pending });
      const reset = run(state, { a: 'storage', stored: {} });
      expect(reset.effects).to.deep.include({ k: 'clearView' });
      expect(reset.effects).to.deep.include({ k: 'reconnect' });
    });

    it('reset forgets the visitor and starts over', () => {
      const { state, effects } = run(resumed(2), { a: 'reset' });
      expect(effects.slice(0, 2)).to.deep.equal([{ k: 'disconnect' }, { k: 'save', patch: null }]);
      expect(state).to.include({ lastSeq: 0, conversation: null, fatal: false });
      expect(state.stored).to.deep.equal({});
      expect(effects).to.deep.include({ k: 'connect' });
    });
  });

  describe('screens', () => {
    it('offline form when offline without a conversation; consent, then details, then chat when required', () => {
      const settings = { requireAcceptance: true, requireInfo: true };
      expect(screenFor(fresh({}, false), settings, undefined)).to.equal('offline');
      expect(screenFor(fresh({ ongoing: true }, false), settings, undefined)).to.equal('consent');
      expect(screenFor(fresh({ accepted: true }), settings, undefined)).to.equal('info');
      expect(screenFor(fresh({ accepted: true }), settings, { name: 'Jane', email: 'jane@example.com' })).to.equal('chat');
      expect(screenFor(fresh({ accepted: true, infoGiven: true }), settings, undefined)).to.equal('chat');
    });
  });

  describe('help-center answers', () => {
    it('wants suggestions while the visitor writes a first message: none after it is sent, again once the chat ended', () => {
      const page = run(fresh(), { a: 'expand' }, welcome(null)).state;
      expect(wantsSuggestions(page)).to.equal(true);
      const sending = run(page, { a: 'send', text: 'How do I reset my password?', clientId: 'c-first-01' }).state;
      expect(wantsSuggestions(sending)).to.equal(false);
      const stored = run(sending, { t: 'ack', clientId: 'c-first-01', seq: 1, id: 'm1', at: '2026-11-23T21:00:00.000Z' }).state;
      expect(wantsSuggestions(stored)).to.equal(false);
      expect(wantsSuggestions(resumed(3))).to.equal(false);
      const ended = run(resumed(3), { t: 'ended', seq: 4, by: 'operator' }).state;
      expect(wantsSuggestions(ended)).to.equal(true);
      expect(wantsSuggestions(run(page, { t: 'error', code: 'unknown_widget', message: 'gone' }).state)).to.equal(false);
    });

    it('shows an automatic answer without taking it for an operator reply, and badges it while the panel is closed', () => {
      const auto = msg(2, { from: 'system', automatic: true, author: { name: 'Automatic answer' }, articles: [] });
      const question = msg(1, { from: 'visitor', author: undefined, text: 'How do I reset my password?' });
      const asked = run(fresh(), { a: 'expand' }, welcome(1), question).state;
      const open = run(asked, auto);
      expect(shown(open.effects)).to.deep.equal([2]);
      expect(open.state.answered).to.equal(false);
      expect(of(open.effects, 'noAnswer')).to.deep.equal([]);
      expect(of(open.effects, 'unread')).to.deep.equal([]);
      const closed = run(asked, { a: 'collapse' }, auto);
      expect(closed.state.unread).to.equal(1);
      expect(of(closed.effects, 'unread')).to.deep.equal([{ k: 'unread', count: 1 }]);
      expect(of(closed.effects, 'chime')).to.have.length(1);
      // Replayed after a reload it is history: no badge again.
      const replayed = run(fresh(), welcome(2), question, auto);
      expect(replayed.state.unread).to.equal(0);
    });

    it("sends the visitor's Yes or No as a helpful frame; Yes ends the wait in the widget too", () => {
      const frame = { t: 'helpful', id: 'm2', helpful: true, articleId: 'a1' } as const;
      const yes = run(resumed(2), { a: 'queue', frame });
      expect(sent(yes.effects)).to.deep.equal([frame]);
      // Yes ends the wait: the "sorry for the wait" timer is disarmed and does not fire; No leaves it armed.
      expect(of(yes.effects, 'noAnswer')).to.deep.equal([{ k: 'noAnswer', arm: false }]);
      expect(run(yes.state, { a: 'noAnswerDue' }).effects).to.deep.equal([]);
      const question = msg(1, { from: 'visitor', author: undefined, text: 'Where is my parcel?' });
      const asked = run(fresh(), { a: 'expand' }, welcome(1), question).state;
      const no = run(asked, { a: 'queue', frame: { ...frame, helpful: false } });
      expect(of(no.effects, 'noAnswer')).to.deep.equal([]);
      expect(of(run(no.state, { a: 'noAnswerDue' }).effects, 'noAnswerNotice')).to.have.length(1);
      // After a reload, an automatic answer already found helpful counts the same.
      const reloaded = run(fresh(), welcome(2), question, msg(2, { from: 'system', automatic: true, helpful: true }));
      expect(reloaded.state.answered).to.equal(true);
    });
  });
});
