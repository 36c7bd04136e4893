/**
 * The operator page in headless Chromium, with a real Bolt app (ExpressReceiver) on the other side: a person
 * reads threads, replies, runs a slash command, fills a modal, presses a button and opens App Home.
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, ExpressReceiver, LogLevel } from '@slack/bolt';
import { expect } from 'chai';
import { useBrowser } from '../../helpers/browser';
import {
  ACME,
  ALICE,
  BOB,
  CLIENT_ID,
  clientFor,
  installBot,
  type SandboxFixture,
  SIGNING_SECRET,
  SUPPORT,
  startSandbox,
  until,
} from './helpers';

describe('Slack sandbox operator page (browser)', function () {
  this.timeout(60_000);
  const browser = useBrowser({ viewport: { width: 1400, height: 850 }, context: 'suite', page: 'suite' });
  let f: SandboxFixture;
  let server: Server;
  let parentTs: string;
  let seen: { messages: string[]; submissions: Array<Record<string, unknown>>; actions: string[]; homeOpened: number; shortcuts: string[] };

  beforeEach(async () => {
    f = await startSandbox({
      app: { shortcuts: [{ type: 'message', callbackId: 'parley_conversation_actions', name: 'Conversation actions' }] },
    });
    const { client, inst } = installBot(f);
    await client.conversations.join({ channel: SUPPORT });
    seen = { messages: [], submissions: [], actions: [], homeOpened: 0, shortcuts: [] };
    const receiver = new ExpressReceiver({ signingSecret: SIGNING_SECRET, logLevel: LogLevel.ERROR });
    const app = new App({ token: inst.botToken, receiver, logLevel: LogLevel.ERROR, clientOptions: { slackApiUrl: f.sandbox.apiUrl } });
    app.message(async ({ message }) => {
      if (message.subtype === undefined) seen.messages.push(message.text ?? '');
    });
    app.command('/parley', async ({ ack, command, client: c }) => {
      if (command.text === 'hours') {
        await ack();
        await c.views.open({
          trigger_id: command.trigger_id,
          view: {
            type: 'modal',
            callback_id: 'hours',
            title: { type: 'plain_text', text: 'Operating hours' },
            submit: { type: 'plain_text', text: 'Save' },
            blocks: [
              {
                type: 'input',
                block_id: 'from',
                label: { type: 'plain_text', text: 'Opens at' },
                element: { type: 'timepicker', action_id: 't', initial_time: '09:00' },
              },
              {
                type: 'input',
                block_id: 'note',
                label: { type: 'plain_text', text: 'Note' },
                element: { type: 'plain_text_input', action_id: 'n' },
              },
            ],
          },
        });
        return;
      }
      await ack({ text: `Parley is *online* here (you typed \`${command.text}\`)` });
    });
    app.view('hours', async ({ ack, view }) => {
      const note = view.state.values.note.n.value ?? '';
      if (note.length < 3) {
        await ack({ response_action: 'errors', errors: { note: 'Write at least 3 characters' } });
        return;
      }
      seen.submissions.push(view.state.values);
      await ack();
    });
    app.action('end_chat', async ({ ack, respond, body }) => {
      await ack();
      seen.actions.push(body.user.id);
      await respond({ replace_original: true, text: 'Chat ended' });
    });
    app.shortcut('parley_conversation_actions', async ({ ack, shortcut }) => {
      await ack();
      if (shortcut.type === 'message_action') seen.shortcuts.push(shortcut.message_ts);
    });
    app.event('app_home_opened', async ({ event, client: c }) => {
      seen.homeOpened += 1;
      await c.views.publish({
        user_id: event.user,
        view: { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Website chat* is online' } }] },
      });
    });
    server = await new Promise<Server>((ok) => {
      const s = receiver.app.listen(0, '127.0.0.1', () => ok(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
    f.sandbox.setAppUrls({ eventsUrl: url, commandsUrl: url, interactivityUrl: url });

    const parent = await client.chat.postMessage({
      channel: SUPPORT,
      text: 'New chat with Jane',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: '*Jane Doe* on /pricing\n> Do you ship to Canada?' } },
        {
          type: 'actions',
          block_id: 'conv',
          elements: [
            { type: 'button', action_id: 'end_chat', style: 'danger', value: '12', text: { type: 'plain_text', text: 'End chat' } },
          ],
        },
      ],
    });
    parentTs = parent.ts as string;
    await client.chat.postMessage({ channel: SUPPORT, thread_ts: parentTs, text: 'Do you ship to Canada?' });
  });

  afterEach(async () => {
    server?.closeAllConnections();
    server?.close();
    await f.close();
  });

  const open = async () => {
    const page = browser.page;
    await page.goto(`${f.baseUrl}/?team=${ACME}&user=${ALICE}&channel=${SUPPORT}`);
    await page.waitForSelector(`.msg[data-ts="${parentTs}"]`);
    return page;
  };

  it('shows the channel with the thread, and a reply typed in the thread reaches the app as a message event', async () => {
    const page = await open();
    expect(await page.textContent(`.msg[data-ts="${parentTs}"]`))
      .to.contain('Jane Doe')
      .and.contain('1 reply');
    await page.click(`.msg[data-ts="${parentTs}"] [data-act="open-thread"]`);
    await page.waitForSelector('#op-thread .msg >> text=Do you ship to Canada?');
    await page.fill('#op-thread-text', 'Yes, we do!');
    await page.press('#op-thread-text', 'Enter');
    await page.waitForSelector('#op-thread .msg >> text=Yes, we do!');
    const reply = f.sandbox.state.replies(SUPPORT, parentTs).find((m) => m.text === 'Yes, we do!');
    expect(reply?.user).to.equal(ALICE);
    await until(() => seen.messages.includes('Yes, we do!'));
  });

  it('shows Slack markup rendered, joins as system lines, and opens the channel at its newest message', async () => {
    const { client } = installBot(f);
    for (let i = 0; i < 30; i += 1) await f.sandbox.postAsUser({ teamId: ACME, userId: BOB, channelId: SUPPORT, text: `Filler ${i}` });
    await client.chat.postMessage({
      channel: SUPPORT,
      text: '<!here> :alarm_clock: *Tom* waits &lt;2 min&gt; since <!date^1392734382^{date_short}|Feb 18> — <https://example.com/t|open> <@U0ALICE001>',
    });
    const page = await open();
    const last = page.locator('#op-messages .msg').last();
    await last.locator('a', { hasText: 'open' }).waitFor();
    const text = await last.locator('.text').innerText();
    expect(text).to.contain('@here ⏰ Tom waits <2 min> since Feb 18, 2014').and.contain('@Alice');
    expect(text).to.not.match(/:alarm_clock:|<!date|&lt;/);
    // The newest message is in view without scrolling; its link is reachable with the keyboard.
    expect(await last.isVisible()).to.equal(true);
    const box = await last.boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).to.be.at.most(850);
    expect(await last.locator('a', { hasText: 'open' }).getAttribute('href')).to.equal('https://example.com/t');
    await page.locator('#op-channels a', { hasText: 'general' }).focus();
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.contain('general');
    // The app's bot joined #support at the start: Slack's system line says so.
    await page.locator('#op-messages .msg.system', { hasText: 'joined #support.' }).first().waitFor();
  });

  it('sends a thread reply to the channel too when "Also send to channel" is ticked', async () => {
    const page = await open();
    await page.click(`.msg[data-ts="${parentTs}"] [data-act="open-thread"]`);
    await page.check('#op-thread-broadcast');
    await page.fill('#op-thread-text', 'Heads up, team');
    await page.press('#op-thread-text', 'Enter');
    await page.waitForSelector('#op-messages .msg >> text=Heads up, team');
    expect(f.sandbox.state.replies(SUPPORT, parentTs).find((m) => m.text === 'Heads up, team')?.replyBroadcast).to.equal(true);
  });

  it('runs a slash command and shows the ephemeral answer only to the person who typed it', async () => {
    const page = await open();
    await page.fill('#op-text', '/parley status');
    await page.press('#op-text', 'Enter');
    await page.waitForSelector('.ephemeral >> text=online');
    expect(await page.textContent('.ephemeral')).to.contain('Only visible to you');
    await page.selectOption('#op-user', BOB);
    await page.waitForSelector('.ephemeral', { state: 'detached' });
  });

  it('renders a modal opened by the app, shows its field errors, and closes it on a valid submission', async () => {
    const page = await open();
    await page.fill('#op-text', '/parley hours');
    await page.press('#op-text', 'Enter');
    await page.waitForSelector('#op-modal.open >> text=Operating hours');
    await page.fill('#op-modal [data-block-id="note"] input', 'no');
    await page.click('#op-modal-submit');
    await page.waitForSelector('[data-error-for="note"] >> text=Write at least 3 characters');
    expect(await page.inputValue('#op-modal [data-block-id="note"] input')).to.equal('no');
    await page.fill('#op-modal [data-block-id="note"] input', 'Closed on Sundays');
    await page.fill('#op-modal [data-block-id="from"] input', '08:30');
    await page.click('#op-modal-submit');
    await page.waitForSelector('#op-modal.open', { state: 'detached' });
    expect(seen.submissions).to.have.length(1);
    expect(seen.submissions[0]).to.deep.include({
      note: { n: { type: 'plain_text_input', value: 'Closed on Sundays' } },
      from: { t: { type: 'timepicker', selected_time: '08:30' } },
    });
  });

  it('presses a Block Kit button: the app gets block_actions and replaces the message', async () => {
    const page = await open();
    await page.click(`.msg[data-ts="${parentTs}"] [data-action-id="end_chat"]`);
    await page.waitForSelector(`.msg[data-ts="${parentTs}"] >> text=Chat ended`);
    expect(seen.actions).to.deep.equal([ALICE]);
  });

  it('asks for confirmation before sending a button that carries a confirm dialog', async () => {
    const client = clientFor(f, f.sandbox.state.installation(ACME)?.botToken);
    const m = await client.chat.postMessage({
      channel: SUPPORT,
      text: 'Discard?',
      blocks: [
        {
          type: 'actions',
          block_id: 'discard',
          elements: [
            {
              type: 'button',
              action_id: 'end_chat',
              text: { type: 'plain_text', text: 'Discard' },
              confirm: {
                title: { type: 'plain_text', text: 'Discard the chat?' },
                text: { type: 'plain_text', text: 'The visitor sees nothing.' },
                confirm: { type: 'plain_text', text: 'Discard' },
                deny: { type: 'plain_text', text: 'Keep' },
              },
            },
          ],
        },
      ],
    });
    const page = await open();
    const button = `.msg[data-ts="${m.ts}"] [data-action-id="end_chat"]`;
    await page.waitForSelector(button);
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await page.click(button);
    expect(asked).to.contain('Discard the chat?').and.contain('The visitor sees nothing.');
    expect(seen.actions).to.have.length(0);
    page.once('dialog', (d) => void d.accept());
    await page.click(button);
    await until(() => seen.actions.length > 0);
  });

  it('runs a message shortcut from the message menu', async () => {
    const page = await open();
    await page.hover(`.msg[data-ts="${parentTs}"]`);
    await page.click(`.msg[data-ts="${parentTs}"] [data-act="shortcut"][data-callback-id="parley_conversation_actions"]`);
    await until(() => seen.shortcuts.length > 0);
    expect(seen.shortcuts).to.deep.equal([parentTs]);
  });

  it('opens App Home: the app hears app_home_opened and the published view is shown', async () => {
    const page = await open();
    await page.click('#op-home-link');
    await page.waitForSelector('#op-home >> text=is online');
    expect(seen.homeOpened).to.equal(1);
  });

  it('toggles presence, which users.getPresence reports', async () => {
    const page = await open();
    expect(await page.isChecked('#op-presence')).to.equal(true);
    await page.uncheck('#op-presence');
    await page.waitForSelector('#op-presence-label >> text=Away');
    expect(f.sandbox.state.user(ALICE)?.presence).to.equal('away');
  });

  it('starts a fault from the Slack faults panel: posts are carried out and their answers lost, until cleared', async () => {
    const page = await open();
    await page.click('#op-faults summary');
    await page.selectOption('#op-fault-kind', 'drop');
    await page.fill('#op-fault-method', 'chat.postMessage');
    await page.fill('#op-fault-seconds', '60');
    await page.click('#op-faults-form button[type=submit]');
    await page.waitForSelector('#op-fault-list >> text=answers lost (reset)');
    const client = clientFor(f, f.sandbox.state.installation(ACME)?.botToken);
    const lost = await client.chat.postMessage({ channel: SUPPORT, text: 'answer lost' }).catch((e: unknown) => e as { code: string });
    expect(lost).to.include({ code: 'slack_webapi_request_error' });
    expect(f.sandbox.state.channelMessages(SUPPORT).map((m) => m.text)).to.include('answer lost');
    await page.click('#op-faults-clear');
    await page.waitForSelector('#op-fault-list >> text=None: Slack answers every call.');
    expect((await client.chat.postMessage({ channel: SUPPORT, text: 'answered' })).ok).to.equal(true);
  });

  it('edits and deletes a message of the person acting', async () => {
    const page = await open();
    const mine = await f.sandbox.postAsUser({ teamId: ACME, userId: ALICE, channelId: SUPPORT, text: 'typo hree' });
    await page.waitForSelector(`.msg[data-ts="${mine.ts}"]`);
    page.once('dialog', (d) => void d.accept('typo here'));
    await page.hover(`.msg[data-ts="${mine.ts}"]`);
    await page.click(`.msg[data-ts="${mine.ts}"] [data-act="edit"]`);
    await page.waitForSelector(`.msg[data-ts="${mine.ts}"] >> text=(edited)`);
    expect(f.sandbox.state.message(SUPPORT, mine.ts)?.text).to.equal('typo here');
    page.once('dialog', (d) => void d.accept());
    await page.hover(`.msg[data-ts="${mine.ts}"]`);
    await page.click(`.msg[data-ts="${mine.ts}"] [data-act="delete"]`);
    await page.waitForSelector(`.msg[data-ts="${mine.ts}"]`, { state: 'detached' });
  });

  it('renames the channel from its header, and the app hears channel_rename', async () => {
    const page = await open();
    page.once('dialog', (d) => void d.accept('customer-support'));
    await page.click('#op-rename');
    await page.waitForSelector('#op-channel-title >> text=customer-support');
    await until(() => f.sandbox.state.deliveries.find((d) => d.summary === 'event channel_rename' && d.ok));
    expect(f.sandbox.state.channel(SUPPORT)?.name).to.equal('customer-support');
  });

  it('walks through the OAuth consent page and lands on the redirect URL with a code', async () => {
    const page = browser.page;
    const redirect = `${f.app.url}/slack/oauth_redirect`;
    await page.goto(
      `${f.sandbox.authorizeUrl}?client_id=${CLIENT_ID}&scope=chat:write,commands&user_scope=channels:write&redirect_uri=${encodeURIComponent(redirect)}&state=s1`,
    );
    await page.selectOption('#sandbox-oauth-user', BOB);
    await Promise.all([page.waitForURL(/oauth_redirect/), page.click('#sandbox-oauth-allow')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).to.equal('s1');
    const grant = f.sandbox.state.codes.get(landed.searchParams.get('code') as string);
    expect(grant).to.include({ userId: BOB, teamId: ACME });
  });
});
