import { expect } from 'chai';
import { signUpUser } from '../factories';
import { ACME, ALICE, BOB, eventually, type SetUp, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';
import { addGlobex, firstWidgetId, GINA, GLOBEX, installWidget } from './helpers';
import { channelPosts, fastHomes, openChat } from './operatorHelpers';

describe('Slack App Home', () => {
  let widget: SetUp;
  const server = useRelayServer();
  before(async () => {
    addGlobex(server.slack);
    fastHomes(server);
  });
  beforeEach(async () => {
    server.slack.state.setPresence(ALICE, 'active');
    widget = await setUpRelayWidget(server);
  });

  const home = (teamId: string, userId: string) => server.slack.state.homeView(teamId, userId);
  const homeText = (teamId: string, userId: string) => JSON.stringify(home(teamId, userId)?.definition.blocks ?? []);
  const publishesTo = (userId: string) => server.slack.state.callsOf('views.publish').filter((c) => c.args.user_id === userId).length;
  /** The blocks of this test's widget only (Alice is in the channels of earlier tests' widgets too). */
  const widgetText = () => {
    const blocks = (home(ACME, ALICE)?.definition.blocks ?? []) as { block_id?: string }[];
    const start = blocks.findIndex((b) => b.block_id === `widget_${widget.ceId}`);
    return start < 0 ? '' : JSON.stringify(blocks.slice(start, start + 4));
  };
  const pressHome = async (actionId: string) => {
    const view = home(ACME, ALICE);
    const result = await server.slack.sendBlockAction({
      teamId: ACME,
      userId: ALICE,
      actionId,
      blockId: `home_${widget.ceId}`,
      viewId: view?.id ?? '',
    });
    expect(result.ok).to.equal(true);
  };

  it('tells a person whose channels have no widget how to set one up', async () => {
    const user = await signUpUser(server);
    await installWidget(server, user.token, await firstWidgetId(server, user.token), { team: GLOBEX, user: GINA });
    await server.slack.openAppHome({ teamId: GLOBEX, userId: GINA });
    await eventually(async () =>
      expect(homeText(GLOBEX, GINA)).to.include('No website chat is linked to a channel you are in').and.include(`${server.url}/app/`),
    );
    await server.slack.openAppHome({ teamId: ACME, userId: BOB });
    await eventually(async () => expect(homeText(ACME, BOB)).to.include('No website chat is linked'));
    expect(homeText(ACME, BOB)).to.not.include(widget.channel);
  });

  it('shows each widget of the person’s channels: state and why, counts, waiting conversations with links, and buttons', async () => {
    const chat = await openChat(server, widget, 'Walter');
    await server.slack.openAppHome({ teamId: ACME, userId: ALICE });
    await eventually(async () => expect(widgetText()).to.include('Walter'));
    const text = widgetText();
    expect(text).to.include(`<#${widget.channel}>`).and.include('*Online*').and.include('is active in Slack');
    expect(text).to.include('Today: *1*').and.include('Last 30 days: *1*');
    expect(text).to.include(`/archives/${widget.channel}/p${chat.threadTs.replace('.', '')}`);
    const buttons = JSON.stringify(home(ACME, ALICE)?.definition.blocks);
    expect(buttons)
      .to.include('home_go_offline')
      .and.include('home_manual_mode')
      .and.include('home_operating_hours')
      .and.include(`#/settings/${widget.ceId}/behavior`);
    chat.socket.close();
  });

  it('Go offline, Go online and Manual mode change the widget, tell the channel and open widgets, and refresh the home', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await server.slack.openAppHome({ teamId: ACME, userId: ALICE });
    await eventually(async () => expect(widgetText()).to.include('*Online*'));
    await pressHome('home_go_offline');
    await eventually(async () => expect((await widget.widget()).off).to.equal(true));
    expect((await socket.next('presence')).online).to.equal(false);
    await eventually(async () => expect(widgetText()).to.include('*Offline*').and.include('turned off'));
    await eventually(async () => expect(channelPosts(server, widget.channel).join('\n')).to.include('from the Parley App Home'));
    await pressHome('home_go_online');
    await eventually(async () => expect((await widget.widget()).off).to.equal(false));
    expect((await socket.next('presence')).online).to.equal(true);
    await pressHome('home_manual_mode');
    await eventually(async () => expect((await widget.widget()).manualMode).to.equal(true));
    await eventually(async () => expect(widgetText()).to.include('manual mode'));
    await pressHome('home_operating_hours');
    await eventually(async () =>
      expect(server.slack.state.openModals(ACME, ALICE).at(-1)?.definition.callback_id).to.equal('parley_operating_hours'),
    );
    socket.close();
  });

  it('refreshes when a conversation starts or a setting changes, at most once per interval per person', async () => {
    const tabs = server.parley.homeTabs;
    await server.slack.openAppHome({ teamId: ACME, userId: ALICE });
    await eventually(async () => expect(widgetText()).to.include('No conversation is waiting'));
    tabs.minIntervalMs = 400;
    try {
      const before = publishesTo(ALICE);
      const chat = await openChat(server, widget, 'Nora');
      for (let i = 0; i < 20; i++) tabs.teamChanged(ACME);
      await eventually(async () => expect(widgetText()).to.include('Nora'));
      await server.slack.settled();
      expect(publishesTo(ALICE) - before).to.be.within(1, 2);
      await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { off: true } });
      await server.parley.relay.presence.recheck(widget.ceId);
      tabs.teamChanged(ACME);
      await eventually(async () => expect(widgetText()).to.include('*Offline*'));
      chat.socket.close();
    } finally {
      tabs.minIntervalMs = 50;
    }
  });

  it('answers a person who writes to Parley in its Messages tab with what it does, /parley help and the console link', async () => {
    const opened = await server.slack.openAppHome({ teamId: ACME, userId: BOB, tab: 'messages' });
    expect(opened.ok).to.equal(true);
    await server.slack.messageApp({ teamId: ACME, userId: BOB, text: 'hello, what can you do?' });
    await eventually(async () => expect(server.slack.appDmMessages({ teamId: ACME, userId: BOB })).to.have.length(2));
    const [question, answer] = server.slack.appDmMessages({ teamId: ACME, userId: BOB });
    expect(question?.user).to.equal(BOB);
    expect(answer?.botId).to.be.a('string');
    expect(answer?.text).to.include('/parley help').and.include(`${server.url}/app/`).and.include('website');
    // The DM is not a channel: it stays out of conversations.list and the operator's channel list.
    expect(server.slack.state.channelsOf(ACME).some((c) => c.id.startsWith('D'))).to.equal(false);
  });
});
