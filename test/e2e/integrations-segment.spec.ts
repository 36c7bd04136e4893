/**
 * The Integrations tab's Segment row (browser): Disabled without a write key; once the widget has one, whether
 * Segment (here a local collector at SEGMENT_HOST) accepted the last batch of its events or why it did not.
 * Screenshots at 1280×800 and 390×844 land in test-results/settings/.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { sendOfflineMessage } from '../../server/commands/sendOfflineMessage';
import { signUpUser } from '../factories';
import { startTestServer, type TestServer } from '../helpers/app';
import { picturesAtBothSizes, useBrowser } from '../helpers/browser';
import { eventually, firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';

describe('Integrations tab: Segment status (browser)', function () {
  this.timeout(120_000);
  const browser = useBrowser();
  let server: TestServer;
  let collector: Server;
  let refuse = false;
  let accepted = 0;

  before(async () => {
    collector = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (refuse) {
          res.statusCode = 503;
          res.end();
          return;
        }
        accepted++;
        res.end('{"success":true}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', () => resolve()));
    const host = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    server = await startTestServer({ segment: { host, flushIntervalMs: 100 } });
  });
  after(async () => {
    await server?.close();
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  });

  const shots = (page: Page, name: string) => picturesAtBothSizes(page, 'settings', name);

  it('shows Disabled, then the last accepted batch, then why Segment refused one; configure leads to the write key', async () => {
    const page = browser.page;
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    const tab = `${server.url}/app/#/settings/${ceId}/integrations`;
    await page.goto(tab);
    const row = () => page.getByRole('row', { name: /Segment/ });
    await row().getByRole('cell', { name: 'Disabled' }).waitFor();

    await row().getByRole('link', { name: 'configure' }).click();
    await page.getByLabel('Segment write key').waitFor();

    await server.models.ChatEndpoint.updateOne({ _id: ceId }, { $set: { segmentWriteKey: 'wk_console_test' } });
    server.parley.relay.widgets.invalidate(ceId);
    await page.goto(tab);
    await row().getByRole('cell', { name: 'Enabled: no events sent yet' }).waitFor();

    const widget = await server.models.ChatEndpoint.findById(ceId);
    if (!widget) throw new Error('widget gone');
    await sendOfflineMessage(server.parley.relay, widget, { email: 'later@example.org', message: 'Call me' }, { country: '' });
    await eventually(async () => expect(accepted).to.be.greaterThan(0));
    await page.reload();
    await row()
      .getByRole('cell', { name: /^Sending: last batch accepted / })
      .waitFor();
    await shots(page, 'integrations-segment');

    refuse = true;
    await sendOfflineMessage(server.parley.relay, widget, { email: 'again@example.org', message: 'Again' }, { country: '' });
    await eventually(async () => expect(server.parley.analytics.status('wk_console_test').lastError).to.not.equal(null));
    await page.reload();
    await row()
      .getByRole('cell', { name: /^Failing: Segment answered 503/ })
      .waitFor();
    await shots(page, 'integrations-segment-failing');
    refuse = false;
  });
});
