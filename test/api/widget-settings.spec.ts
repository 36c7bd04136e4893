/**
 * The settings calls of a widget: update_config with every validation rule of the settings spec (section 5),
 * the on/off toggle, the team avatar upload and removal, and operating hours turning the widget on and off at
 * the scheduled times (with a clock the test moves) and announcing it in the channel.
 */
import { expect } from 'chai';
import request from 'supertest';
import { AVATAR_REMOVAL_REFUSED, HOURS_ORDER_MESSAGE, HOURS_STEP_MESSAGE, TEAM_AVATAR_NEEDED } from '../../server/shared/settings';
import { waitFor } from '../e2e/widgetHelpers';
import { startTestServer, type TestServer } from '../helpers/app';
import { FAST_RELAY, type SetUp, setUpRelayWidget, VisitorSocket } from '../relay/helpers';

/** A clock the test sets; starts on Monday 2026-11-23 08:00 UTC. */
class TestClock {
  at = new Date('2026-11-23T08:00:00Z');
  now(): Date {
    return new Date(this.at);
  }
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('widget settings API (update_config, toggle, team avatar, operating hours)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let w: SetUp;
  let other: SetUp;
  const clock = new TestClock();

  before(async () => {
    // The schedule is checked when the test says so (check()), not on a timer.
    server = await startTestServer({ relay: { ...FAST_RELAY, scheduleCheckMs: 3_600_000 } }, { clock });
    w = await setUpRelayWidget(server);
    other = await setUpRelayWidget(server);
  });
  after(async () => {
    await server.slack.settled();
    await server.close();
  });

  const put = (path: string, token: string | null = w.token) => {
    const req = request(server.url).put(`/v1${path}`);
    return token ? req.set('Authorization', `Bearer ${token}`) : req;
  };
  const update = (body: Record<string, unknown>, id = w.ceId) => put(`/chat_endpoints/${id}/update_config`).send(body);
  const rejects = async (body: Record<string, unknown>, message: string | RegExp) => {
    const res = await update(body).expect(400);
    if (typeof message === 'string') expect(res.body.Message).to.equal(message);
    else expect(res.body.Message).to.match(message);
    return res;
  };

  describe('PUT /chat_endpoints/{id}/update_config', () => {
    it('saves the fields sent, answers the widget, and leaves the others as they were', async () => {
      const res = await update({
        titleColor: '#ff0066',
        onlineTitle: 'Talk to us',
        widgetAlignment: 'bottomLeft',
        maxConcurrentConvos: 5,
      }).expect(200);
      expect(res.body).to.include({
        Id: w.ceId,
        titleColor: '#ff0066',
        onlineTitle: 'Talk to us',
        widgetAlignment: 'bottomLeft',
        maxConcurrentConvos: 5,
      });
      const ce = await w.widget();
      expect(ce.titleColor).to.equal('#ff0066');
      expect(ce.offlineTitle).to.not.equal('');
    });

    it('turns select values sent as text into numbers, a non-numeric one into 0', async () => {
      expect((await update({ maxConcurrentConvos: '12', responseRemindersFreq: '90' }).expect(200)).body).to.include({
        maxConcurrentConvos: 12,
        responseRemindersFreq: 90,
      });
      expect((await update({ maxConcurrentConvos: 'lots' }).expect(200)).body.maxConcurrentConvos).to.equal(0);
    });

    it('answers 400 Invalid filter for a hide-on-pages entry that is no regular expression, and stores nothing', async () => {
      await rejects({ blacklistedUrls: '/checkout, /admin/(' }, 'Invalid filter: /admin/(');
      expect((await w.widget()).blacklistedUrls).to.equal('');
      expect((await update({ blacklistedUrls: '/checkout /blog/.*' }).expect(200)).body.blacklistedUrls).to.equal('/checkout /blog/.*');
    });

    it('answers 400 for a country that is no ISO code, and for country lists without collecting personal data', async () => {
      await rejects(
        { collectVisitorMetaData: true, countryAllowList: 'US, XX' },
        /^Allowed countries: XX is not an ISO two-letter country code/,
      );
      await rejects(
        { collectVisitorMetaData: true, countryDenyList: 'USA' },
        /^Blocked countries: USA is not an ISO two-letter country code/,
      );
      await rejects(
        { collectVisitorMetaData: false, countryAllowList: 'US' },
        'Country lists need the collect personal data privacy setting on.',
      );
      expect(
        (await update({ collectVisitorMetaData: true, countryAllowList: 'US, CA', countryDenyList: '' }).expect(200)).body.countryAllowList,
      ).to.equal('US, CA');
      await update({ countryAllowList: '' }).expect(200);
    });

    it('answers 400 for an acceptance text under three characters while acceptance is required', async () => {
      await rejects(
        { requireAcceptance: true, acceptanceText: 'ok' },
        'Must be at least three characters for Acceptance text to be displayed.',
      );
      await update({ requireAcceptance: true, acceptanceText: 'I agree to the terms' }).expect(200);
      await update({ requireAcceptance: false }).expect(200);
    });

    it('answers 400 for a concurrent chat limit that is not a whole number from 0 to 1000', async () => {
      await rejects({ maxConcurrentConvos: 2.5 }, /^Concurrent chat limit must be a whole number/);
      await rejects({ maxConcurrentConvos: -1 }, /^Concurrent chat limit must be a whole number/);
    });

    it('takes response targets in whole minutes (empty or 0: none) and answers 400 for a fraction, a negative, too long or a word', async () => {
      const saved = await update({ firstResponseTargetMins: '15', nextResponseTargetMins: 60 }).expect(200);
      expect(saved.body).to.include({ firstResponseTargetMins: 15, nextResponseTargetMins: 60 });
      await update({ nextResponseTargetMins: '' }).expect(200);
      expect((await server.models.ChatEndpoint.findById(w.ceId))?.nextResponseTargetMins).to.equal(0);
      const message = /^First-response target must be a whole number of minutes from 0 \(no target\) to 10080/;
      for (const bad of [2.5, -1, 10_081, 'soon', true]) await rejects({ firstResponseTargetMins: bad }, message);
      expect((await server.models.ChatEndpoint.findById(w.ceId))?.firstResponseTargetMins).to.equal(15);
    });

    it('answers 400 for a choice outside the lists of reminder frequency, no-answer delay and inactivity grace', async () => {
      await rejects({ responseRemindersFreq: 45 }, 'Response reminder frequency must be one of 30, 60, 90, 120');
      await rejects({ noAnswerMessageAfterSecs: 10 }, 'No-answer message delay must be one of 30, 60, 90, 120, 180, 240, 300');
      await rejects({ maxVisitorInactiveMins: 7 }, 'Inactive visitor grace period must be one of 0, 1, 2, 3, 4, 5, 10, 15');
    });

    it('answers 400 for a transcript recipient that is no e-mail and a webhook that is no http(s) URL', async () => {
      await rejects({ transcriptRecipient: 'not-an-email' }, /^Transcript recipient: /);
      await rejects({ webhookUrl: 'ftp://example.com/hook' }, /^Transcript webhook URL: Enter a full web address/);
    });

    it('answers 400 naming a setting no widget has, saving nothing, and still takes the whole widget as the API answers it', async () => {
      const before = await w.widget();
      const res = await rejects(
        { titleOnline: 'Hello there', titleColor: '#123456' },
        'Unknown setting: titleOnline (did you mean onlineTitle?)',
      );
      expect(res.body.Error).to.equal('bad_request');
      await rejects({ onlineTitle: 'Hi', colour: 'red' }, 'Unknown setting: colour');
      const after = await w.widget();
      expect([after.onlineTitle, after.titleColor]).to.deep.equal([before.onlineTitle, before.titleColor]);

      // The console may send back the whole widget as GET /users/current/chat_endpoints answered it.
      const me = await request(server.url).get('/v1/users/current/chat_endpoints').set('Authorization', `Bearer ${w.token}`).expect(200);
      const whole = me.body.find((ce: { Id: string }) => ce.Id === w.ceId);
      expect(whole).to.have.property('chatStats');
      const saved = await update({ ...whole, onlineTitle: 'Whole widget saved' }).expect(200);
      expect(saved.body).to.include({ Id: w.ceId, Uuid: w.uuid, onlineTitle: 'Whole widget saved' });
    });

    it('answers 400 for operating hours off the 15-minute steps or ending before they start, and drops equal pairs', async () => {
      await rejects({ operatingHours: [{ weekday: 1, start: 910, end: 1700 }] }, HOURS_STEP_MESSAGE);
      await rejects({ operatingHours: [{ weekday: 1, start: 1700, end: 900 }] }, HOURS_ORDER_MESSAGE);
      await rejects({ operatingHours: [{ weekday: 7, start: 900, end: 1700 }] }, 'Operating hours: weekday must be 0 (Sunday) to 6');
      const res = await update({
        operatingHours: [
          { weekday: 1, ceId: w.ceId, start: 900, end: 1700 },
          { weekday: 2, ceId: w.ceId, start: 1200, end: 1200 },
        ],
      }).expect(200);
      expect(res.body.operatingHours).to.deep.equal([{ weekday: 1, ceId: w.ceId, start: 900, end: 1700 }]);
    });

    it('answers 400 when a team avatar option is chosen before a team avatar is uploaded', async () => {
      await rejects(
        { forwardSlackUserName: true, showAvatarPreChat: false, showTeamAvatarPreChat: true, teamAvatarOn: true },
        TEAM_AVATAR_NEEDED,
      );
    });

    it('answers 403 without a session and 404 for another account’s widget, changing nothing', async () => {
      await put(`/chat_endpoints/${w.ceId}/update_config`, null).send({ titleColor: '#000000' }).expect(403);
      await update({ titleColor: '#000000' }, other.ceId).expect(404);
      expect((await other.widget()).titleColor).to.not.equal('#000000');
    });
  });

  describe('PUT /chat_endpoints/{id}/toggle/{on|off}', () => {
    it('turns the widget off and on, and open widgets hear it at once', async () => {
      const { socket, welcome } = await VisitorSocket.hello(server, w.uuid);
      expect(welcome.online).to.equal(true);
      expect((await put(`/chat_endpoints/${w.ceId}/toggle/off`).expect(200)).body.off).to.equal(true);
      expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: false });
      expect((await put(`/chat_endpoints/${w.ceId}/toggle/on`).expect(200)).body.off).to.equal(false);
      expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: true });
      socket.close();
    });

    it('answers 400 for anything but on or off, 403 without a session and 404 for another account’s widget', async () => {
      expect((await put(`/chat_endpoints/${w.ceId}/toggle/maybe`).expect(400)).body.Message).to.equal('Say on or off');
      await put(`/chat_endpoints/${w.ceId}/toggle/off`, null).expect(403);
      await put(`/chat_endpoints/${other.ceId}/toggle/off`).expect(404);
      expect((await other.widget()).off).to.equal(false);
    });
  });

  describe('team avatar', () => {
    const upload = (body: Buffer, name: string, id = w.ceId, token: string | null = w.token) => {
      const req = request(server.url)
        .post(`/v1/chat_endpoints/${id}/team-avatar`)
        .attach('file', body, name)
        .field('size', String(body.length));
      return token ? req.set('Authorization', `Bearer ${token}`) : req;
    };

    it('stores an uploaded image where visitors’ browsers on any site can load it, then allows the team avatar options', async () => {
      const res = await upload(PNG, 'logo.png').expect(200);
      const url = new URL(res.body.teamAvatarUrl as string);
      const image = await request(server.url).get(url.pathname).expect(200);
      expect(image.headers['content-type']).to.equal('image/png');
      expect(image.headers['cross-origin-resource-policy']).to.equal('cross-origin');
      expect(Buffer.compare(image.body as Buffer, PNG)).to.equal(0);
      await update({ forwardSlackUserName: true, showAvatarPreChat: false, showTeamAvatarPreChat: true, teamAvatarOn: true }).expect(200);
      const config = await request(server.url).get(`/widget/api/${w.uuid}/config`).expect(200);
      expect(config.body.settings.teamAvatarUrl).to.equal(res.body.teamAvatarUrl);
    });

    it('refuses removal while a team avatar option is chosen, removes it otherwise and stops serving it', async () => {
      const url = new URL((await w.widget()).teamAvatarUrl);
      const del = () => request(server.url).delete(`/v1/chat_endpoints/${w.ceId}/team-avatar`).set('Authorization', `Bearer ${w.token}`);
      expect((await del().expect(400)).body.Message).to.equal(AVATAR_REMOVAL_REFUSED);
      await update({ forwardSlackUserName: false, showAvatarPreChat: false, showTeamAvatarPreChat: false, teamAvatarOn: false }).expect(
        200,
      );
      expect((await del().expect(200)).body.teamAvatarUrl).to.equal('');
      await request(server.url).get(url.pathname).expect(404);
    });

    it('answers 400 for a file that is no image (whatever its name), for an image over 1 MB, and for no file', async () => {
      expect((await upload(Buffer.from('<svg onload="alert(1)"></svg>'), 'logo.png').expect(400)).body.Message).to.equal(
        'The team avatar must be a PNG, JPEG, GIF or WebP image.',
      );
      const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
      expect((await upload(big, 'big.png').expect(400)).body.Message).to.equal('The team avatar must be at most 1 MB.');
      const none = await request(server.url)
        .post(`/v1/chat_endpoints/${w.ceId}/team-avatar`)
        .set('Authorization', `Bearer ${w.token}`)
        .field('size', '0')
        .expect(400);
      expect(none.body.Message).to.equal('Send the image in the field "file".');
      expect((await w.widget()).teamAvatarUrl).to.equal('');
    });

    it('answers 403 without a session and 404 for another account’s widget', async () => {
      await upload(PNG, 'logo.png', w.ceId, null).expect(403);
      await upload(PNG, 'logo.png', other.ceId).expect(404);
      expect((await other.widget()).teamAvatarUrl).to.equal('');
    });
  });

  describe('operating hours', () => {
    it('turns the widget off at the scheduled OFF time and on at the ON time, announcing both in the channel', async () => {
      // Monday 09:00–17:00 in Paris (UTC+1 in November); the clock says Monday 08:00 UTC = 09:00 in Paris.
      clock.at = new Date('2026-11-23T08:00:00Z');
      await update({
        tz: 'Europe/Paris',
        onOffSchedule: true,
        sendOpHourChangeMessages: true,
        operatingHours: [{ weekday: 1, start: 900, end: 1700 }],
      }).expect(200);
      await server.parley.relay.schedule.check();
      const { socket, welcome } = await VisitorSocket.hello(server, w.uuid);
      expect(welcome.online).to.equal(true);

      clock.at = new Date('2026-11-23T16:00:00Z'); // 17:00 in Paris
      await server.parley.relay.schedule.check();
      expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: false });
      const config = await request(server.url).get(`/widget/api/${w.uuid}/config`).expect(200);
      expect(config.body.online).to.equal(false);
      await waitFor('the OFF message', () =>
        server.slack.state.channelMessages(w.channel).find((m) => m.text.includes('Operating hours have ended (Europe/Paris)')),
      );

      clock.at = new Date('2026-11-30T08:15:00Z'); // next Monday 09:15 in Paris
      await server.parley.relay.schedule.check();
      expect(await socket.next('presence')).to.deep.equal({ t: 'presence', online: true });
      await waitFor('the ON message', () =>
        server.slack.state.channelMessages(w.channel).find((m) => m.text.includes('Operating hours have started (Europe/Paris)')),
      );
      socket.close();
    });

    it('does not announce saving new hours, only the scheduled times that follow', async () => {
      const before = server.slack.state.channelMessages(w.channel).length;
      clock.at = new Date('2026-11-30T08:15:00Z');
      await update({ operatingHours: [{ weekday: 2, start: 900, end: 1700 }] }).expect(200);
      await server.parley.relay.schedule.check();
      expect((await w.widget()).status).to.equal('offline');
      expect(server.slack.state.channelMessages(w.channel).length).to.equal(before);
      await update({ onOffSchedule: false }).expect(200);
    });
  });
});
