import type { WebClient } from '@slack/web-api';
import { expect } from 'chai';
import { MissingScopeError, NotFoundError, ValidationError } from '../../server/errors';
import { addBotUser, listBotUsers, listSlackUsers, MISSING_USERS_READ, removeBotUser } from '../../server/slack/botUsers';
import { ACME, ALICE, BOB, type SetUp, setUpRelayWidget, useRelayServer } from '../relay/helpers';

describe('botUsers (against the Slack sandbox)', () => {
  const server = useRelayServer();
  let widget: SetUp;
  let client: WebClient;
  let botUserId = '';
  before(async () => {
    widget = await setUpRelayWidget(server);
    const team = await server.parley.slack.forTeam(ACME);
    if (!team) throw new Error('not installed');
    client = team.client;
    botUserId = team.botUserId;
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as Error,
    );

  it('lists the workspace’s active members without Slackbot and Parley, bots first', async () => {
    const ce = await widget.widget();
    const list = await listSlackUsers(server.models, ce, client);
    const ids = list.map((u) => u.id);
    expect(ids).to.include.members([ALICE, BOB]);
    expect(ids).to.not.include('USLACKBOT');
    expect(ids).to.not.include(botUserId);
    const firstPerson = list.findIndex((u) => !u.is_bot);
    expect(list.slice(firstPerson).every((u) => !u.is_bot)).to.equal(true);
  });

  it("adds a member by Slack's own name (not the form's), once per widget, and removes them", async () => {
    const ce = await widget.widget();
    const view = await addBotUser(server.models, ce, client, { userID: BOB, name: 'forged name', botID: '' });
    expect(view.userID).to.equal(BOB);
    expect(view.name).to.not.equal('forged name');
    await addBotUser(server.models, ce, client, { userID: BOB, name: 'again', botID: '' });
    expect((await listBotUsers(server.models, ce)).map((b) => b.userID)).to.deep.equal([BOB]);
    await removeBotUser(server.models, ce, view.ID);
    expect(await listBotUsers(server.models, ce)).to.deep.equal([]);
    expect(await refusal(removeBotUser(server.models, ce, view.ID))).to.be.instanceOf(NotFoundError);
  });

  it('refuses Parley itself and a user Slack does not know', async () => {
    const ce = await widget.widget();
    expect((await refusal(addBotUser(server.models, ce, client, { userID: botUserId, name: '', botID: '' })))?.message).to.equal(
      'Parley is already in every conversation.',
    );
    const unknown = await refusal(addBotUser(server.models, ce, client, { userID: 'U0NOBODY99', name: '', botID: '' }));
    expect(unknown).to.be.instanceOf(ValidationError);
    expect(await listBotUsers(server.models, ce)).to.deep.equal([]);
  });

  it('asks for the users:read permission when Slack says it is missing', async () => {
    const ce = await widget.widget();
    const missing = Object.assign(new Error('missing_scope'), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'missing_scope' },
    });
    const noScope = { users: { list: () => Promise.reject(missing) } } as unknown as WebClient;
    const error = await refusal(listSlackUsers(server.models, ce, noScope));
    expect(error).to.be.instanceOf(MissingScopeError);
    expect(error?.message).to.equal(MISSING_USERS_READ);
  });
});
