/**
 * What a visitor trips on in the widget (browser, demo site on another origin): the launcher of a widget that
 * is off, the acknowledgement of a first message, the send button, phone wording, links in formatted
 * operator replies, and the transcript field after the end (issue 15, defects 5, 6 and 7).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { ACME, ALICE } from '../slack/helpers';
import { configuredWidget, shot, threadWith, type Widget, waitFor } from './widgetHelpers';

describe('widget on first use (browser)', function () {
  this.timeout(90_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });

  before(async function () {
    this.timeout(60_000);
    await widgetBuilt();
  });

  async function openDemo(page: Page, widget: Widget) {
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    const host = page.locator('parley-widget');
    const launcher = host.locator('.launcher');
    await launcher.waitFor();
    return {
      host,
      launcher,
      input: host.getByRole('textbox', { name: 'Message', exact: true }),
      log: host.getByRole('log', { name: 'Messages' }),
    };
  }

  it('shows the offline title on the launcher as soon as the widget is turned off, on the next page load', async () => {
    const widget = await configuredWidget(server, { hideWhenOffline: false });
    const page = browser.page;
    const { launcher } = await openDemo(page, widget);
    expect(await launcher.textContent()).to.contain('Questions? Chat with us!');
    await server.models.ChatEndpoint.updateOne({ _id: widget.ceId }, { $set: { off: true } });
    await page.reload();
    await launcher.waitFor();
    const text = await launcher.textContent();
    expect(text).to.not.contain('Questions? Chat with us!');
    expect(text).to.contain('Contact us');
  });

  it('acknowledges the first message, has a send button on desktop, and makes links in formatted replies clickable', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    const panel = await openDemo(page, widget);
    await panel.launcher.click();
    await panel.input.fill('Do you have decaf?');
    const send = panel.host.getByRole('button', { name: 'Send', exact: true });
    expect(await send.isVisible()).to.equal(true);
    await send.click();
    await panel.log.getByRole('listitem').filter({ hasText: 'Thanks for reaching out! Someone will be with you shortly.' }).waitFor();
    await shot(page, 'first-message-acknowledged');

    const thread = await waitFor('the thread', () => threadWith(server, widget.channel, 'Do you have decaf?'));
    await server.slack.postAsUser({
      teamId: ACME,
      userId: ALICE,
      channelId: widget.channel,
      threadTs: thread.parent.ts,
      text: '*Yes!* See https://shop.example.com/decaf for the list',
    });
    const reply = panel.log.locator('.msg.operator', { hasText: 'for the list' });
    await reply.locator('strong', { hasText: 'Yes!' }).waitFor();
    const link = reply.getByRole('link', { name: 'https://shop.example.com/decaf' });
    expect(await link.getAttribute('href')).to.equal('https://shop.example.com/decaf');
  });

  it('labels the transcript field after the end, with a placeholder that fits', async () => {
    const widget = await configuredWidget(server);
    const page = browser.page;
    const panel = await openDemo(page, widget);
    await panel.launcher.click();
    await panel.input.fill('Quick question');
    await panel.input.press('Enter');
    await panel.log.locator('.msg.visitor:not(.sending)', { hasText: 'Quick question' }).waitFor();
    await panel.host.getByRole('button', { name: 'Chat options' }).click();
    await panel.host.getByRole('menuitem', { name: 'End chat' }).click();
    await panel.host.getByRole('button', { name: 'Yes' }).click();
    const field = panel.host.getByLabel('Email address for a transcript');
    await field.waitFor();
    expect(await field.getAttribute('placeholder')).to.equal('you@example.com');
    // The placeholder is not cut: the field is wider than its text.
    const fits = await field.evaluate((el) => {
      const input = el as HTMLInputElement;
      const probe = document.createElement('canvas').getContext('2d');
      if (!probe) return false;
      probe.font = getComputedStyle(input).font;
      return probe.measureText(input.placeholder).width < input.clientWidth;
    });
    expect(fits).to.equal(true);
    await shot(page, 'transcript-field');
  });

  it('does not tell phone visitors to press Enter', async () => {
    const widget = await configuredWidget(server);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const panel = await openDemo(page, widget);
    await panel.launcher.click();
    await panel.input.waitFor();
    const placeholder = await panel.input.getAttribute('placeholder');
    expect(placeholder).to.not.match(/Enter/);
    expect(placeholder).to.contain('Type your message');
    await panel.host.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await shot(page, 'phone-composer');
  });
});
