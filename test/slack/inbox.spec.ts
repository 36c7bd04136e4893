import { expect } from 'chai';
import request from 'supertest';
import { ACME, ALICE, BOB, eventually, type SetUp, setUpRelayWidget, useRelayServer } from '../relay/helpers';
import { type Chat, openChat, parley } from './operatorHelpers';

const CAROL = 'U0CAROL001';

describe('the shared inbox in Slack: assignment, snooze, state, and the API', function () {
  // Each test drives several slash commands and header controls through the sandbox, as operators would.
  this.timeout(120_000);
  let widget: SetUp;
  let chat: Chat;
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.setPresence(ALICE, 'active');
    widget = await setUpRelayWidget(server);
    await server.slack.joinChannel({ teamId: ACME, userId: BOB, channelId: widget.channel });
    chat = await openChat(server, widget);
  });
  afterEach(() => chat.socket.close());

  const header = () => JSON.stringify(server.slack.state.channelMessages(widget.channel).find((m) => m.ts === chat.threadTs)?.blocks ?? []);
  const thread = () => server.slack.state.replies(widget.channel, chat.threadTs).map((m) => m.text ?? '');
  const conversation = async () => server.models.Conversation.findById(chat.id).orFail();
  const press = (actionId: string, who: string, value?: string) =>
    server.slack.sendBlockAction({
      teamId: ACME,
      userId: who,
      actionId,
      message: { channelId: widget.channel, ts: chat.threadTs },
      ...(value ? { value } : {}),
    });

  it('two operators pressing Assign to me at the same instant: one gets it, the other is told, one line, the header names the one', async () => {
    await eventually(async () => expect(header()).to.include('Assign to me').and.include('Unassigned'));
    await Promise.all([press('inbox_assign_me', ALICE), press('inbox_assign_me', BOB)]);
    let winner = '';
    await eventually(async () => {
      winner = (await conversation()).assigneeId;
      expect([ALICE, BOB]).to.include(winner);
      expect(header()).to.include(`Assigned to <@${winner}>`);
    });
    const loser = winner === ALICE ? BOB : ALICE;
    await eventually(async () =>
      expect(
        server.slack.state
          .ephemeralsFor(ACME, loser, widget.channel)
          .map((e) => e.text)
          .join('\n'),
      ).to.include(`<@${winner}> took conversation #${chat.number}`),
    );
    await server.slack.settled();
    expect(thread().filter((t) => t.includes('took this conversation'))).to.have.length(1);
    // The picker gives it to someone else in the channel; someone outside it is refused, nothing changes.
    await press('inbox_assign_pick', ALICE, loser);
    await eventually(async () => expect((await conversation()).assigneeId).to.equal(loser));
    // The picker's own answer first, so the next command's answer is not mistaken for it.
    await eventually(async () =>
      expect(
        server.slack.state
          .ephemeralsFor(ACME, ALICE, widget.channel)
          .map((e) => e.text)
          .join('\n'),
      ).to.include(`is assigned to <@${loser}> now`),
    );
    const refused = await parley(server, widget.channel, `assign ${chat.number} @carol`);
    expect(refused.text).to.include(`<@${CAROL}> is not a member of <#${widget.channel}>`);
    expect((await conversation()).assigneeId).to.equal(loser);
    const unassigned = await parley(server, widget.channel, `unassign ${chat.number}`);
    expect(unassigned.text).to.include('is unassigned now');
    await eventually(async () => expect(header()).to.include('Unassigned'));
  });

  it('snoozes from /parley and the header menu, explains a time it cannot read, and filters the API by state and assignee', async () => {
    const unreadable = await parley(server, widget.channel, `snooze ${chat.number} soonish`);
    expect(unreadable.text).to.include('cannot read “soonish”').and.include('`2h`').and.include('tomorrow 3pm');
    const past = await parley(server, widget.channel, `snooze ${chat.number} 2020-01-01`);
    expect(past.text).to.include('already passed');
    expect((await conversation()).inboxState).to.equal('open');
    const snoozed = await parley(server, widget.channel, `snooze ${chat.number} 2h`);
    expect(snoozed.text).to.include(`Conversation #${chat.number} is snoozed until`);
    await eventually(async () => expect(header()).to.include('*Snoozed* until'));
    await press('inbox_snooze', ALICE, 'wake');
    await eventually(async () => expect((await conversation()).inboxState).to.equal('open'));
    await press('inbox_snooze', ALICE, '1h');
    await eventually(async () => expect((await conversation()).inboxState).to.equal('snoozed'));
    const until = (await conversation()).snoozedUntil?.getTime() ?? 0;
    expect(Math.abs(until - Date.now() - 3600_000)).to.be.lessThan(60_000);
    await parley(server, widget.channel, `assign ${chat.number} me`);

    const key = (await request(server.url).put('/v1/accounts/generate-api-key').set('Authorization', `Bearer ${widget.token}`).expect(200))
      .body.account.apiKey as string;
    const list = async (query: string) =>
      (await request(server.url).get(`/v1/api/conversations?${query}`).set('Authorization', `Bearer ${key}`).expect(200)).body.data as {
        number: number;
        state: string;
        assigneeId: string;
      }[];
    const mine = await list(`state=snoozed&assignee=${ALICE}`);
    expect(mine.map((c) => [c.number, c.state, c.assigneeId])).to.deep.equal([[chat.number, 'snoozed', ALICE]]);
    expect(await list('state=open')).to.deep.equal([]);
    expect(await list('assignee=none')).to.deep.equal([]);
    const bad = await request(server.url).get('/v1/api/conversations?state=sleepy').set('Authorization', `Bearer ${key}`).expect(400);
    expect(bad.body.Message).to.include('state: one of open, waiting, snoozed, ended');
  });
});
