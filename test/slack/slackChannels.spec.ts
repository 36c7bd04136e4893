import type { WebClient } from '@slack/web-api';
import { expect } from 'chai';
import { ValidationError } from '../../server/errors';
import {
  changeChannel,
  connectChannel,
  createSlackChannel,
  HIDDEN_ROOM_NAMES,
  listRooms,
  ROOMS_ERROR,
  renameChannel,
} from '../../server/slack/slackChannels';
import { ACME, type SetUp, setUpRelayWidget, useRelayServer } from '../relay/helpers';

describe('slackChannels (against the Slack sandbox)', () => {
  const server = useRelayServer();
  let widget: SetUp;
  let client: WebClient;
  before(async () => {
    widget = await setUpRelayWidget(server);
    const team = await server.parley.slack.forTeam(ACME);
    if (!team) throw new Error('not installed');
    client = team.client;
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as ValidationError,
    );

  it('lists public channels sorted by name without general and random, and remembers them on the widget', async () => {
    const ce = await widget.widget();
    const rooms = await listRooms(server.models, ce, client);
    const names = rooms.map((r) => r.Name);
    expect(names).to.deep.equal([...names].sort((a, b) => a.localeCompare(b)));
    for (const hidden of HIDDEN_ROOM_NAMES) expect(names).to.not.include(hidden);
    expect(rooms.map((r) => r.Id)).to.include(widget.channel);
    expect((await widget.widget()).AvailableRooms.map((r) => r.Id)).to.deep.equal(rooms.map((r) => r.Id));
  });

  it("creates a channel, and passes Slack's refusal of a taken name on in the console's words", async () => {
    const created = await createSlackChannel(client, 'cmd-spec-new');
    expect(created.Name).to.equal('cmd-spec-new');
    const taken = await refusal(createSlackChannel(client, 'cmd-spec-new'));
    expect(taken).to.be.instanceOf(ValidationError);
    expect(taken?.code).to.equal('name_taken');
    expect(taken?.message).to.equal('A Slack channel with this name already exists. Choose it from the list or pick another name.');
  });

  it('connects a channel by its real name, refuses one another widget uses, renames it and unlinks it (Step 2)', async () => {
    const ce = await widget.widget();
    const other = await createSlackChannel(client, 'cmd-spec-other');
    const connected = await connectChannel(server.models, ce, client, other.Id);
    expect(connected).to.deep.include({ Step: 3, RoomId: other.Id, RoomName: 'cmd-spec-other' });
    const second = await setUpRelayWidget(server);
    const inUse = await refusal(connectChannel(server.models, await second.widget(), client, other.Id));
    expect(inUse?.code).to.equal('channel_in_use');
    const missing = await refusal(connectChannel(server.models, await second.widget(), client, 'C0NOSUCH99'));
    expect(missing?.code).to.equal('channel_not_found');
    const renamed = await renameChannel(connected, client, 'cmd-spec-renamed');
    expect(renamed.RoomName).to.equal('cmd-spec-renamed');
    expect((await widget.widget()).RoomName).to.equal('cmd-spec-renamed');
    const unlinked = await changeChannel(renamed);
    expect(unlinked).to.deep.include({ Step: 2, RoomId: '', RoomName: '', status: 'offline' });
    expect((await refusal(renameChannel(unlinked, client, 'x')))?.code).to.equal('not_connected');
  });

  it('answers a failed listing with the console’s message and Slack’s code', async () => {
    const ce = await widget.widget();
    const broken = {
      conversations: {
        list: () => Promise.reject(Object.assign(new Error('x'), { code: 'slack_webapi_platform_error', data: { error: 'invalid_auth' } })),
      },
    };
    const error = await refusal(listRooms(server.models, ce, broken as unknown as WebClient));
    expect(error?.message).to.equal(ROOMS_ERROR);
    expect(error?.code).to.equal('invalid_auth');
  });
});
