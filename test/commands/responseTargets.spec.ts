/**
 * Response targets through the Slack sandbox: a visitor's wait starts with their line after an answer, the header
 * shows when the answer is due, the answer records one response event (business waitSecs, within target or not),
 * a missed target gets one reminder however many due-work passes run at once, and a snooze stops the clock.
 */
import type { Types } from 'mongoose';
import { remindMissedTarget, startWait } from '../../server/commands/responseTargets';
import { snoozeConversation, wakeConversation } from '../../server/commands/snoozeConversation';
import { remindMissedTargets } from '../../server/relay/index';
import { ACME, ALICE, BOB, eventually, say } from '../relay/helpers';
import { useChat } from './chat';

describe('responseTargets', () => {
  const { server, at, conversation, thread, expect } = useChat();
  const header = () => JSON.stringify(server.slack.state.channelMessages(at.widget.channel).find((m) => m.ts === at.chat.threadTs)?.blocks);
  const reply = (text: string, who = ALICE) =>
    server.slack.postAsUser({ teamId: ACME, userId: who, channelId: at.widget.channel, text, threadTs: at.chat.threadTs });
  const setWidget = async (fields: Record<string, unknown>) => {
    await server.models.ChatEndpoint.updateOne({ _id: at.widget.ceId }, { $set: fields });
    server.parley.relay.widgets.invalidate(at.widget.ceId);
  };
  const responses = async (id: Types.ObjectId) =>
    (await server.models.InboxEvent.find({ conversationId: id, kind: 'response' }).sort({ at: 1 }).lean()).map((e) => ({
      operatorId: e.operatorId,
      responseKind: e.responseKind,
      waitSecs: e.waitSecs,
      withinTarget: e.withinTarget,
    }));
  /** Answered once (no target then), so the visitor's next line starts a `next` wait. */
  const answeredOnce = async () => {
    await reply('Hi, how can I help?');
    await eventually(async () => expect((await conversation()).inboxState).to.equal('waiting'));
  };
  const missedLines = (texts: string[]) => texts.filter((t) => t.includes(':rotating_light:'));

  it('starts a next-response target with the visitor’s line after an answer, shows it, and records the answer within it', async () => {
    // Inactivity must not end the chat in the due-work passes below, which run minutes ahead.
    await setWidget({ nextResponseTargetMins: 30, maxVisitorInactiveMins: 120 });
    const c = await conversation();
    await answeredOnce();
    // The first answer had no target: its event says so (null), and nobody waits now.
    await eventually(async () => expect(await responses(c._id)).to.have.length(1));
    const [first] = await responses(c._id);
    expect(first).to.include({ operatorId: ALICE, responseKind: 'first', withinTarget: null });
    expect(first?.waitSecs).to.be.within(0, 30);
    expect((await conversation()).waitingSince).to.equal(null);

    const before = Date.now();
    await say(at.chat.socket, 'One more question about my order');
    await eventually(async () => expect((await conversation()).targetKind).to.equal('next'));
    const waiting = await conversation();
    const due = waiting.targetDueAt?.getTime() ?? 0;
    expect(due - (waiting.waitingSince?.getTime() ?? 0)).to.equal(30 * 60_000);
    expect(waiting.waitingSince?.getTime()).to.be.within(before - 1000, Date.now());
    await eventually(async () => expect(header()).to.include(':stopwatch: Next response due'));
    // A further line while the visitor waits does not move the target.
    await say(at.chat.socket, 'It is order 1234');
    await eventually(async () => expect((await conversation()).visitorMsgs).to.equal(3));
    expect((await conversation()).targetDueAt?.getTime()).to.equal(due);

    await server.slack.joinChannel({ teamId: ACME, userId: BOB, channelId: at.widget.channel });
    await reply('Order 1234 ships today.', BOB);
    await eventually(async () => expect(await responses(c._id)).to.have.length(2));
    const [, next] = await responses(c._id);
    expect(next).to.include({ operatorId: BOB, responseKind: 'next', withinTarget: true });
    expect(await conversation()).to.include({ targetDueAt: null, targetKind: null, waitingSince: null });
    await eventually(async () => expect(header()).to.not.include('Next response due').and.to.not.include('target missed'));
    // Nothing is due any more: a pass past the old due time reminds nobody.
    expect(await remindMissedTargets(server.parley.relay, new Date(due + 60_000))).to.equal(0);
  });

  it('counts only operating hours: a line before the hours begin is due the target’s minutes after they open, and waits 0', async () => {
    await answeredOnce();
    // An hour of operating hours that begins two hours from now (UTC), on that moment's weekday.
    const opens = new Date(Date.now() + 2 * 60 * 60_000);
    opens.setUTCMinutes(0, 0, 0);
    const start = opens.getUTCHours() * 100;
    await setWidget({
      nextResponseTargetMins: 15,
      tz: 'UTC',
      onOffSchedule: true,
      operatingHours: [{ weekday: opens.getUTCDay(), start, end: start + 100 }],
    });
    const c = await conversation();
    await say(at.chat.socket, 'Are you open yet?');
    await eventually(async () => expect((await conversation()).targetKind).to.equal('next'));
    expect((await conversation()).targetDueAt?.getTime()).to.equal(opens.getTime() + 15 * 60_000);
    await reply('We are, a little early.');
    await eventually(async () => expect(await responses(c._id)).to.have.length(2));
    expect((await responses(c._id))[1]).to.deep.equal({ operatorId: ALICE, responseKind: 'next', waitSecs: 0, withinTarget: true });
  });

  it('reminds the assignee once of a missed target, however many due-work passes run at once, and the header says missed', async () => {
    await setWidget({ nextResponseTargetMins: 5, maxVisitorInactiveMins: 120 });
    const c = await conversation();
    await answeredOnce();
    // Alice answered first, so she has it.
    await eventually(async () => expect((await conversation()).assigneeId).to.equal(ALICE));
    await say(at.chat.socket, 'Hello? Still there?');
    await eventually(async () => expect((await conversation()).targetKind).to.equal('next'));
    const { targetDueAt, waitingSince } = await conversation();
    const due = targetDueAt as Date;
    // Before its time nothing happens.
    expect(await remindMissedTargets(server.parley.relay, new Date(due.getTime() - 1000))).to.equal(0);
    // Past it: two passes at once, the due-work loop's too, and a claim of the same row: one reminder in all.
    const late = new Date(due.getTime() + 1000);
    const counts = await Promise.all([
      remindMissedTargets(server.parley.relay, late),
      remindMissedTargets(server.parley.relay, late),
      remindMissedTarget(server.parley.relay, { _id: c._id, targetDueAt: due }, late),
      server.parley.relay.dueWork.tick(late).then(() => 0),
    ]);
    expect(counts.reduce((a: number, b) => a + Number(b), 0)).to.be.at.most(1);
    await thread((texts) =>
      expect(missedLines(texts)).to.deep.equal([
        `<@${ALICE}> :rotating_light: The next-response target (5 min of operating hours) was missed: the answer was due ${slackDate(due)}. Erin has waited since ${slackDate(waitingSince as Date)}.`,
      ]),
    );
    expect((await conversation()).targetRemindedAt).to.be.instanceOf(Date);
    await eventually(async () => expect(header()).to.include(':rotating_light: Next response target missed'));
    // Later passes remind no more.
    await server.parley.relay.dueWork.tick(new Date(due.getTime() + 60_000));
    await thread((texts) => expect(missedLines(texts)).to.have.length(1));
    // The late answer counts as outside the target.
    await reply('Sorry for the wait!');
    await eventually(async () => expect((await responses(c._id)).at(-1)).to.include({ responseKind: 'next', withinTarget: false }));
  });

  it('stops the clock while snoozed (no reminder past the due time) and starts a new wait when the snooze ends', async () => {
    await setWidget({ nextResponseTargetMins: 5, maxVisitorInactiveMins: 120 });
    const c = await conversation();
    await answeredOnce();
    await say(at.chat.socket, 'Any news?');
    await eventually(async () => expect((await conversation()).targetKind).to.equal('next'));
    const due = (await conversation()).targetDueAt as Date;
    await snoozeConversation(server.parley.relay, c._id, new Date(Date.now() + 60 * 60_000), ALICE);
    expect(await conversation()).to.include({ targetDueAt: null, targetKind: null, waitingSince: null });
    expect(await remindMissedTargets(server.parley.relay, new Date(due.getTime() + 60_000))).to.equal(0);
    // A wait cannot start while it is snoozed.
    expect(await startWait(server.parley.relay, c._id, { nextResponseTargetMins: 5 }, new Date())).to.equal(false);
    const woke = Date.now();
    expect(await wakeConversation(server.parley.relay, c._id, { kind: 'operator', byId: ALICE })).to.equal(true);
    const open = await conversation();
    expect(open.targetKind).to.equal('next');
    expect(open.waitingSince?.getTime()).to.be.within(woke, Date.now());
    expect(open.targetDueAt?.getTime()).to.equal((open.waitingSince?.getTime() ?? 0) + 5 * 60_000);
    await eventually(async () => expect(header()).to.include('Next response due'));
    await thread((texts) => expect(missedLines(texts)).to.deep.equal([]));
  });
});

/** The date as the reminder writes it (Slack's date formatting with its UTC fallback). */
function slackDate(at: Date): string {
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} at {time}|${at.toISOString().slice(0, 16).replace('T', ' ')} UTC>`;
}
