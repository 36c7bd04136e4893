/**
 * Behavior → Tags through the real console (browser): tags added with Enter and Add, a tag
 * that is not one word refused as typed, one removed with its ×; saved, kept after a
 * reload, no WCAG A/AA violation, at 1280×800 and 390×844 (screenshots in test-results/).
 */
import path from 'node:path';
import { expect } from 'chai';
import { TERMS_VERSION } from '../../server/shared/constants';
import { useServer } from '../helpers/app';
import { axeViolations, describeViolations } from '../helpers/axe';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { configuredWidget, type Widget } from './widgetHelpers';

describe('Behavior: tags and response targets (browser)', function () {
  this.timeout(120_000);
  let widget: Widget;
  let token: string;
  const server = useServer();
  const browser = useBrowser({ context: 'suite' });

  before(async function () {
    this.timeout(60_000);
    widget = await configuredWidget(server);
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    const user = await server.models.User.findOne({ accountId: ce?.accountId });
    await server.models.User.updateOne({ _id: user?._id }, { $set: { ActiveTOSPP: TERMS_VERSION } });
    const res = await fetch(`${server.url}/v1/p/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user?.email, password: 'correct horse battery' }),
    });
    token = ((await res.json()) as { token: string }).token;
  });

  it('adds, refuses and removes tags, saves them for good, at both sizes without a WCAG violation', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/settings/${widget.ceId}/behavior`);
    const heading = page.getByRole('heading', { name: 'Tags' });
    await heading.waitFor();
    await page.getByText('No tags yet.').waitFor();
    const input = page.getByLabel('New tag');
    await input.fill('Billing');
    await input.press('Enter');
    await input.fill('refund');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await input.fill('bug');
    await input.press('Enter');
    await input.fill('two words');
    await page.getByText('“two words” is not one word').waitFor();
    expect(await page.getByRole('button', { name: 'Add', exact: true }).isDisabled()).to.equal(true);
    await input.fill('billing');
    await page.getByText('“billing” is in the list already.').waitFor();
    await input.fill('');
    await page.getByRole('button', { name: 'Remove tag refund' }).click();
    expect(await page.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).to.deep.equal(['billing×', 'bug×']);
    await heading.scrollIntoViewIfNeeded();
    await picture(page, path.join(RESULTS_DIR, 'tags-settings-1280.png'));
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).to.deep.equal([]);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    expect([...(ce?.tags ?? [])]).to.deep.equal(['billing', 'bug']);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('list', { name: 'Tags' }).waitFor();
    expect(await page.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).to.deep.equal(['billing×', 'bug×']);
    await page.getByLabel('New tag').fill('no spaces please');
    await page.getByRole('heading', { name: 'Tags' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await picture(page, path.join(RESULTS_DIR, 'tags-settings-390.png'));
    const narrow = await axeViolations(page);
    expect(narrow, describeViolations(narrow)).to.deep.equal([]);
  });

  it('sets the response targets in minutes: a wrong value is refused as typed, empty is no target; kept after a reload at both sizes', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    await page.goto(`${server.url}/app/#/settings/${widget.ceId}/behavior`);
    const first = page.getByLabel('First-response target (minutes)');
    const next = page.getByLabel('Next-response target (minutes)');
    await first.waitFor();
    expect(await first.inputValue()).to.equal('');
    await first.fill('1.5');
    await page.getByText('Enter whole minutes from 1 to 10080, or leave it empty for no target.').waitFor();
    expect(await first.getAttribute('aria-invalid')).to.equal('true');
    await first.fill('15');
    await next.fill('60');
    await first.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await picture(page, path.join(RESULTS_DIR, 'response-targets-1280.png'));
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).to.deep.equal([]);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    const ce = await server.models.ChatEndpoint.findById(widget.ceId);
    expect({ first: ce?.firstResponseTargetMins, next: ce?.nextResponseTargetMins }).to.deep.equal({ first: 15, next: 60 });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await first.waitFor();
    expect([await first.inputValue(), await next.inputValue()]).to.deep.equal(['15', '60']);
    // Emptied: no next-response target.
    await next.fill('');
    await first.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await picture(page, path.join(RESULTS_DIR, 'response-targets-390.png'));
    const narrow = await axeViolations(page);
    expect(narrow, describeViolations(narrow)).to.deep.equal([]);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    expect((await server.models.ChatEndpoint.findById(widget.ceId))?.nextResponseTargetMins).to.equal(0);
  });
});
