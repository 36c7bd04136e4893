/**
 * The widget in the visitor's language, server side: the config answers the texts of the language the browser's
 * list picks (only that language), the owner's own texts and per-language overrides win, a settings change
 * reaches each open widget in its visitor's language, and operators see the visitor's language in the thread.
 */
import { expect } from 'chai';
import request from 'supertest';
import { texts as ar } from '../../server/shared/widget-texts/ar';
import { texts as de } from '../../server/shared/widget-texts/de';
import { texts as en } from '../../server/shared/widget-texts/en';
import { texts as fr } from '../../server/shared/widget-texts/fr';
import { ACME, ALICE, eventually, PAGE, type SetUp, say, setUpRelayWidget, useRelayServer, VisitorSocket } from '../relay/helpers';

describe('widget language (config, overrides, config frames, Slack header)', () => {
  let widget: SetUp;
  const server = useRelayServer();
  beforeEach(async () => {
    widget = await setUpRelayWidget(server);
  });

  const config = (lang?: string, acceptLanguage?: string) => {
    const req = request(server.url).get(
      `/widget/api/${widget.uuid}/config${lang === undefined ? '' : `?lang=${encodeURIComponent(lang)}`}`,
    );
    if (acceptLanguage) req.set('Accept-Language', acceptLanguage);
    return req.expect(200);
  };
  const update = (body: Record<string, unknown>) =>
    request(server.url).put(`/v1/chat_endpoints/${widget.ceId}/update_config`).set('Authorization', `Bearer ${widget.token}`).send(body);

  it('answers the texts of the language the browser prefers, and only that language', async () => {
    const res = await config('de-DE,de,en-US,en');
    expect(res.body).to.include({ locale: 'de', dir: 'ltr' });
    expect(res.body.settings.onlineTitle).to.equal(de.onlineTitle);
    expect(res.body.settings.offlineGreeting).to.equal(de.offlineGreeting);
    expect(res.body.texts.closeChat).to.equal('Chat schließen');
    expect(res.body.texts.errors.widget_offline).to.equal(de.ui.errors.widget_offline);
    const body = JSON.stringify(res.body);
    for (const other of [en.onlineTitle, en.ui.emptyChat, fr.ui.emptyChat, ar.ui.emptyChat]) expect(body).to.not.include(other);
  });

  it('reads Arabic (and Hebrew) right to left; an unknown language gets English; without ?lang the Accept-Language header decides', async () => {
    const arabic = await config('ar');
    expect(arabic.body).to.include({ locale: 'ar', dir: 'rtl' });
    expect(arabic.body.settings.onlineTitle).to.equal(ar.onlineTitle);
    expect((await config('he-IL')).body).to.include({ locale: 'he', dir: 'rtl' });
    expect((await config('zh-CN')).body).to.include({ locale: 'zh-Hans', dir: 'ltr' });
    const polish = await config('pl-PL,pl');
    expect(polish.body).to.include({ locale: 'en', dir: 'ltr' });
    expect(polish.body.settings.onlineTitle).to.equal(en.onlineTitle);
    expect((await config('pl,fr-CH')).body.locale).to.equal('fr');
    expect((await config(undefined, 'fr-FR,fr;q=0.9,en;q=0.8')).body.locale).to.equal('fr');
    expect((await config('<script>,,*', 'de')).body.locale).to.equal('de');
  });

  it("keeps the owner's own text for every language, and a per-language override wins for its language only", async () => {
    await update({ offlineTitle: 'Write to Acme' }).expect(200);
    const saved = await update({
      textOverrides: {
        de: { onlineTitle: '  Fragen an Acme?  ', agentLabel: '' },
        fr: { offlineTitle: 'Écrivez à Acme' },
        it: { onlineTitle: ' ' },
      },
    }).expect(200);
    // Blank texts are no override: dropped, and a language left with none with them.
    expect(saved.body.textOverrides).to.deep.equal({ de: { onlineTitle: 'Fragen an Acme?' }, fr: { offlineTitle: 'Écrivez à Acme' } });

    const german = (await config('de-DE')).body.settings;
    expect(german.onlineTitle).to.equal('Fragen an Acme?');
    expect(german.offlineTitle).to.equal('Write to Acme');
    expect(german.agentLabel).to.equal(de.agentLabel);
    const french = (await config('fr')).body.settings;
    expect(french.onlineTitle).to.equal(fr.onlineTitle);
    expect(french.offlineTitle).to.equal('Écrivez à Acme');
    const english = (await config('en-GB')).body.settings;
    expect(english.onlineTitle).to.equal(en.onlineTitle);
    expect(english.offlineTitle).to.equal('Write to Acme');
    // Only the texts of the visitor's language leave: no other language's overrides.
    expect(JSON.stringify((await config('en')).body))
      .to.not.include('Acme?')
      .and.not.include('textOverrides');
  });

  it('refuses overrides for a language or text the widget does not have, or longer than the field takes, with a 400 naming it', async () => {
    const bad = async (textOverrides: unknown, message: RegExp) => {
      const res = await update({ textOverrides }).expect(400);
      expect(res.body.Message).to.match(message);
    };
    await bad({ xx: { onlineTitle: 'Hi' } }, /xx is not a widget language/);
    await bad({ de: { webhookUrl: 'https://evil.example' } }, /Deutsch: webhookUrl is not a widget text/);
    await bad({ de: { onlineTitle: 'x'.repeat(51) } }, /Deutsch: Online title: Use at most 50 characters/);
    await bad({ de: { offlineGreeting: 'x'.repeat(4001) } }, /Use at most 4000 characters/);
    await bad({ de: { onlineTitle: 42 } }, /must be text/);
    await bad('de', /object of languages/);
    expect((await server.models.ChatEndpoint.findById(widget.ceId))?.textOverrides ?? {}).to.deep.equal({});
  });

  it("sends a settings change to each open widget in its visitor's language", async () => {
    const german = await VisitorSocket.open(server);
    german.send({ t: 'hello', widgetId: widget.uuid, lastSeq: 0, page: PAGE, languages: ['de-DE', 'en'] });
    await german.next('welcome');
    const arabic = await VisitorSocket.open(server);
    arabic.send({ t: 'hello', widgetId: widget.uuid, lastSeq: 0, page: PAGE, languages: ['ar-EG'] });
    await arabic.next('welcome');
    try {
      await update({ textOverrides: { de: { offlineTitle: 'Schreiben Sie Acme' } } }).expect(200);
      const toGerman = await german.next('config');
      expect(toGerman.config).to.include({ offlineTitle: 'Schreiben Sie Acme', onlineTitle: de.onlineTitle });
      expect(toGerman.config).to.not.have.property('textOverrides');
      const toArabic = await arabic.next('config');
      expect(toArabic.config).to.include({ offlineTitle: ar.offlineTitle, onlineTitle: ar.onlineTitle });
    } finally {
      german.close();
      arabic.close();
    }
  });

  it('welcomes a hello whose language list breaks the limits (dropped, English), rather than refusing the visitor', async () => {
    const socket = await VisitorSocket.open(server);
    try {
      socket.send({ t: 'hello', widgetId: widget.uuid, lastSeq: 0, page: PAGE, languages: ['de', 'x'.repeat(80)] });
      await socket.next('welcome');
      await update({ agentLabel: 'Acme' }).expect(200);
      expect((await socket.next('config')).config).to.include({ onlineTitle: en.onlineTitle, agentLabel: 'Acme' });
    } finally {
      socket.close();
    }
  });

  for (const meta of ['compact', 'full'] as const) {
    it(`shows the visitor's language in the Slack thread header (${meta})`, async () => {
      await update({ metaInfoInMainChannel: meta }).expect(200);
      const socket = await VisitorSocket.open(server);
      try {
        socket.send({ t: 'hello', widgetId: widget.uuid, lastSeq: 0, page: PAGE, languages: ['de-DE', 'de', 'en'] });
        await socket.next('welcome');
        await say(socket, 'Hallo, haben Sie das auch in Blau?');
        await eventually(async () => {
          const threadTs = (await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs ?? '';
          expect(threadTs).to.not.equal('');
          const header = JSON.stringify(server.slack.state.message(widget.channel, threadTs)?.blocks ?? []);
          expect(header).to.include('German (Germany)');
          if (meta === 'full') expect(header).to.include('*Language*');
        });
        if (meta !== 'full') return;
        // And in the thread's Visitor info.
        const threadTs = (await server.models.Conversation.findOne({ ceId: widget.ceId }))?.threadTs ?? '';
        await server.slack.sendBlockAction({
          teamId: ACME,
          userId: ALICE,
          actionId: 'conversation_visitor_info',
          message: { channelId: widget.channel, ts: threadTs },
        });
        await eventually(async () => {
          const opened = server.slack.state.calls.find((c) => c.method === 'views.open' && c.ok);
          expect(JSON.stringify(opened?.args ?? {}))
            .to.include('*Language*')
            .and.include('German (Germany)');
        });
      } finally {
        socket.close();
      }
    });
  }
});
