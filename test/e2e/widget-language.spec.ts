/**
 * The widget in the visitor's language, in Chromium on the demo site: a browser set to German sees German texts
 * and a German clock, one set to Arabic sees Arabic laid out right to left, and an owner's override for one
 * language wins there and only there.
 */

import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { TERMS_VERSION } from '../../server/shared/constants';
import { texts as ar } from '../../server/shared/widget-texts/ar';
import { texts as de } from '../../server/shared/widget-texts/de';
import { texts as fr } from '../../server/shared/widget-texts/fr';
import { useServer } from '../helpers/app';
import { animationsSettled, picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { widgetBuilt } from '../helpers/widgetBuild';
import { eventually } from '../slack/helpers';
import { configuredWidget, shot, type Widget } from './widgetHelpers';

describe('visitor widget in the visitor’s language (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite', page: 'suite' });
  let widget: Widget;

  before(async function () {
    this.timeout(90_000);
    await widgetBuilt();
    widget = await configuredWidget(server);
  });

  async function open(locale: string, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; host: ReturnType<Page['locator']> }> {
    const page = await browser.newPage({ locale, viewport });
    await page.goto(`${server.demoUrl}/?widget=${widget.uuid}`);
    const host = page.locator('parley-widget');
    await host.locator('.launcher').waitFor();
    return { page, host };
  }

  it('speaks German to a browser set to de-DE: launcher, panel, automatic answer and a 24-hour clock', async () => {
    const { page, host } = await open('de-DE');
    const launcher = host.locator('.launcher');
    await eventually(async () => expect(await launcher.textContent()).to.contain(de.onlineTitle));
    await launcher.click();
    const input = host.getByRole('textbox', { name: 'Nachricht', exact: true });
    await input.waitFor();
    expect(await input.getAttribute('placeholder')).to.equal(de.onlineMessagePlaceholder);
    await host.getByText(de.ui.emptyChat).waitFor();
    expect(await host.locator('.panel').getAttribute('lang')).to.equal('de');
    expect(await host.getByRole('button', { name: 'Chat minimieren' }).count()).to.equal(1);
    await input.fill('Guten Tag, liefern Sie auch nach Österreich?');
    await input.press('Enter');
    const mine = host.locator('.msg.visitor:not(.sending)', { hasText: 'Österreich' });
    await mine.waitFor();
    await host.getByText(de.autoResponseMessage).waitFor();
    // German times have no AM/PM.
    expect((await mine.locator('.meta').textContent())?.trim()).to.match(/^\d{1,2}:\d{2}$/);
    await shot(page, 'language-de');
    const phone = await open('de-DE', { width: 390, height: 844 });
    await phone.host.locator('.launcher').click();
    await phone.host.getByText(de.ui.emptyChat).waitFor();
    await shot(phone.page, 'language-de-phone');
  });

  it('speaks Arabic right to left to a browser set to ar', async () => {
    const { page, host } = await open('ar');
    const launcher = host.locator('.launcher');
    await eventually(async () => expect(await launcher.textContent()).to.contain(ar.onlineTitle));
    expect(await host.getAttribute('dir')).to.equal('rtl');
    await launcher.click();
    const input = host.getByRole('textbox', { name: ar.ui.message, exact: true });
    await input.waitFor();
    const panel = host.locator('.panel');
    expect(await panel.evaluate((el) => getComputedStyle(el).direction)).to.equal('rtl');
    await host.getByText(ar.ui.emptyChat).waitFor();
    await input.fill('مرحبًا، هل يمكنني تغيير عنوان التوصيل؟');
    await input.press('Enter');
    const bubble = host.locator('.msg.visitor:not(.sending) .bubble').first();
    await bubble.waitFor();
    await host.getByText(ar.autoResponseMessage).waitFor();
    // Mirrored: the visitor's own message sits on the left, the header's buttons on the left too.
    const box = await bubble.boundingBox();
    const frame = await panel.boundingBox();
    const close = await host.getByRole('button', { name: ar.ui.minimise }).boundingBox();
    if (!box || !frame || !close) throw new Error('the panel is not drawn');
    expect(box.x + box.width / 2).to.be.below(frame.x + frame.width / 2);
    expect(close.x).to.be.below(frame.x + frame.width / 2);
    await shot(page, 'language-ar');
    const phone = await open('ar', { width: 390, height: 844 });
    await phone.host.locator('.launcher').click();
    await phone.host.getByText(ar.ui.emptyChat).waitFor();
    await shot(phone.page, 'language-ar-phone');
  });

  it("shows the owner's override for German to German browsers only", async () => {
    await server.models.ChatEndpoint.updateOne(
      { _id: widget.ceId },
      { $set: { textOverrides: { de: { onlineTitle: 'Fragen an die Kaffeerösterei?', agentLabel: 'Röster-Team' } } } },
    );
    const german = await open('de-DE');
    await eventually(async () => expect(await german.host.locator('.launcher').textContent()).to.contain('Fragen an die Kaffeerösterei?'));
    await german.host.locator('.launcher').click();
    await german.host.getByText('Röster-Team · online').waitFor();
    await german.host.getByText(de.ui.emptyChat).waitFor();
    const french = await open('fr-FR');
    await eventually(async () => expect(await french.host.locator('.launcher').textContent()).to.contain(fr.onlineTitle));
    await french.host.locator('.launcher').click();
    await french.host.getByText(`${fr.agentLabel} · en ligne`).waitFor();
  });

  it('lets the owner write German texts in Appearance (language selector, live preview in German), which German visitors then see', async () => {
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    const user = await server.models.User.findOne({ accountId: ce?.accountId });
    await server.models.User.updateOne({ _id: user?._id }, { $set: { ActiveTOSPP: TERMS_VERSION } });
    const res = await fetch(`${server.url}/v1/p/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user?.email, password: 'correct horse battery' }),
    });
    const { token } = (await res.json()) as { token: string };
    const page = browser.page;
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/settings/${widget.ceId}/appearance`);
    const preview = page.frameLocator('iframe[title="Widget preview"]');
    await preview.getByRole('heading', { name: 'Questions? Chat with us!' }).waitFor();

    await page.getByLabel('Texts for').selectOption('de');
    // The German title set by the earlier test shows; an empty field shows what German visitors get in grey.
    const title = page.getByLabel('Title', { exact: true }).first();
    await eventually(async () => expect(await title.inputValue()).to.equal('Fragen an die Kaffeerösterei?'));
    const greeting = page.getByLabel('Greeting').first();
    await eventually(async () => expect(await greeting.getAttribute('placeholder')).to.equal(de.offlineGreeting));
    expect(await greeting.inputValue()).to.equal('');
    await preview.getByRole('heading', { name: 'Fragen an die Kaffeerösterei?' }).waitFor();
    await title.fill('Fragen zu unseren Bohnen?');
    await preview.getByRole('heading', { name: 'Fragen zu unseren Bohnen?' }).waitFor();
    await page.locator('#save-appearance').click();
    await page.locator('#save-appearance', { hasText: 'Saved' }).waitFor();
    const stored = await server.models.ChatEndpoint.findById(widget.ceId);
    expect(stored?.textOverrides).to.deep.equal({ de: { onlineTitle: 'Fragen zu unseren Bohnen?', agentLabel: 'Röster-Team' } });
    // The texts for every language are untouched.
    expect(stored?.onlineTitle).to.equal('Questions? Chat with us!');

    const dir = path.join(RESULTS_DIR, 'settings');
    await page.getByLabel('Texts for').scrollIntoViewIfNeeded();
    await picture(page, path.join(dir, 'appearance-language-1280.png'));
    await page.getByLabel('Greeting').first().scrollIntoViewIfNeeded();
    await picture(page, path.join(dir, 'appearance-language-fields-1280.png'));
    await page.setViewportSize({ width: 390, height: 844 });
    await animationsSettled(page);
    await page.getByLabel('Texts for').scrollIntoViewIfNeeded();
    await picture(page, path.join(dir, 'appearance-language-390.png'));

    const german = await open('de-DE');
    await eventually(async () => expect(await german.host.locator('.launcher').textContent()).to.contain('Fragen zu unseren Bohnen?'));
    const english = await open('en-US');
    await eventually(async () => expect(await english.host.locator('.launcher').textContent()).to.contain('Questions? Chat with us!'));
  });
});
