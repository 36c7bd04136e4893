import { expect } from 'chai';
import request from 'supertest';
import { ALICE, clientId, eventually, type SetUp, setUpRelayWidget, useRelayServer, VisitorSocket } from './helpers';

describe('widget presence', () => {
  let widget: SetUp;
  // Registered before useRelayServer's own after(), so it runs while the server is still up.
  after(() => server.slack.state.setPresence(ALICE, 'active'));
  const server = useRelayServer();
  beforeEach(async () => {
    server.slack.state.setPresence(ALICE, 'active');
    widget = await setUpRelayWidget(server);
  });

  const updateConfig = (body: Record<string, unknown>) =>
    request(server.url).put(`/v1/chat_endpoints/${widget.ceId}/update_config`).set('Authorization', `Bearer ${widget.token}`).send(body);

  it('goes offline when nobody in the channel is active in Slack and back online when someone is', async () => {
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    expect(welcome.online).to.equal(true);
    server.slack.state.setPresence(ALICE, 'away');
    expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: false });
    const config = await request(server.url).get(`/widget/api/${widget.uuid}/config`).expect(200);
    expect(config.body.online).to.equal(false);
    socket.send({ t: 'msg', clientId: clientId(), text: 'anyone?' });
    expect((await socket.next('error')).code).to.equal('widget_offline');
    server.slack.state.setPresence(ALICE, 'active');
    expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: true });
    socket.close();
  });

  it('stays online in manual mode while nobody is active, and offline whatever Slack says when turned off', async () => {
    server.slack.state.setPresence(ALICE, 'away');
    // Setting the widget up asked Slack already: Parley hears of the change on its next look (sooner or later, as
    // Slack's rate tier for presence allows).
    await eventually(async () =>
      expect((await request(server.url).get(`/widget/api/${widget.uuid}/config`).expect(200)).body.online).to.equal(false),
    );
    const { socket, welcome } = await VisitorSocket.hello(server, widget.uuid);
    expect(welcome.online).to.equal(false);
    await updateConfig({ manualMode: true }).expect(200);
    expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: true });
    server.slack.state.setPresence(ALICE, 'active');
    await updateConfig({ manualMode: false, off: true }).expect(200);
    expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: false });
    expect((await widget.widget()).status).to.equal('offline');
    socket.close();
  });

  it('follows the operating hours when the schedule is on', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    const now = new Date();
    const hour = now.getUTCHours();
    const otherDay = (now.getUTCDay() + 3) % 7;
    await updateConfig({ tz: 'UTC', onOffSchedule: true, operatingHours: [{ weekday: otherDay, start: 900, end: 1700 }] }).expect(200);
    expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: false });
    await updateConfig({
      operatingHours: [{ weekday: now.getUTCDay(), start: hour * 100, end: hour === 23 ? 2400 : (hour + 1) * 100 }],
    }).expect(200);
    expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: true });
    socket.close();
  });

  it('pushes visitor-visible settings to open widgets when they change', async () => {
    const { socket } = await VisitorSocket.hello(server, widget.uuid);
    await updateConfig({ onlineTitle: 'Talk to Acme', hideWhenOffline: true, widgetAlignment: 'bottomLeft' }).expect(200);
    const frame = await socket.next('config');
    expect(frame.config).to.include({ onlineTitle: 'Talk to Acme', hideWhenOffline: true, widgetAlignment: 'bottomLeft' });
    expect(frame.config).to.not.have.property('webhookUrl');
    socket.close();
  });

  it('answers 400 for invalid settings and 404 for another account widget', async () => {
    expect((await updateConfig({ countryDenyList: 'USA, Narnia' }).expect(400)).body.Message).to.match(/country/i);
    expect((await updateConfig({ blacklistedUrls: '/checkout (' }).expect(400)).body.Message).to.match(/Invalid filter/);
    expect((await updateConfig({ maxConcurrentConvos: -1 }).expect(400)).body).to.have.property('Message');
    await updateConfig({ requireAcceptance: true, acceptanceText: 'ok' }).expect(400);
    const other = await setUpRelayWidget(server);
    await request(server.url)
      .put(`/v1/chat_endpoints/${other.ceId}/update_config`)
      .set('Authorization', `Bearer ${widget.token}`)
      .send({ off: true })
      .expect(404);
    await request(server.url)
      .put(`/v1/chat_endpoints/${widget.ceId}/update_config`)
      .send({ off: true })
      .expect((res) => expect(res.status).to.be.oneOf([401, 403]));
    expect((await other.widget()).off).to.equal(false);
  });
});
