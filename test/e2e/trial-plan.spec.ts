/**
 * The trial on the whole product, as a new owner sees it in Chromium against the Slack and Stripe sandboxes: during
 * the trial (billed as Basic) bots, a trigger, a question group and reports all work; once the trial ends on Basic
 * the dashboard and the Account screen say exactly what was switched off, the tabs are locked, and what was set up
 * comes back on upgrade. Each screen is saved at 1280x800 and 390x844 under test-results/trial/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { TERMS_VERSION } from '../../server/shared/constants';
import { useServer } from '../helpers/app';
import { endTrialNow, payCheckout, trialAccount } from '../helpers/billing';
import { picturesAtBothSizes, useBrowser } from '../helpers/browser';
import { setUpWidget } from '../slack/helpers';

const SWITCHED_OFF =
  "Your trial has ended, and your Basic plan does not include reports, triggers, bots, question groups, white label and phone support: these are switched off. Their settings are kept and come back when you upgrade. Basic's limits apply now: 3 operators a month, 1 channel and 300 conversations a month.";

describe('the trial on the whole product (browser)', function () {
  this.timeout(180_000);
  const browser = useBrowser();
  const server = useServer();

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;
  const dayWords = (date: Date) => date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

  /** Saves what the window shows at both sizes (from `top`, scrolled into view), back at 1280x800 afterwards. */
  const shots = (page: Page, name: string, top?: string) =>
    picturesAtBothSizes(page, 'trial', name, top ? () => page.locator(top).first().scrollIntoViewIfNeeded() : undefined);

  it('uses bots, a trigger, a question group and reports in the trial; on Basic after it sees what was switched off, and gets it all back on upgrade', async () => {
    const page = browser.page;
    const trial = await trialAccount(server);
    await server.models.User.updateOne({ _id: trial.userId }, { $set: { ActiveTOSPP: TERMS_VERSION } });
    const ceId = String((await server.models.ChatEndpoint.findOne({ accountId: trial.accountId }))?._id);
    await setUpWidget(server, trial.token, ceId);
    await page.context().addCookies([{ name: 'auth_token', value: trial.token, url: server.url }]);
    const trialEnd = (await server.models.Account.findById(trial.accountId))?.trialEndAt as Date;

    // The dashboard says what the trial includes.
    await page.goto(at('/'));
    await page.getByText('Until it ends every Business feature is on.').waitFor();
    // One name for the trial, on the dashboard's chip and the Account page alike.
    const trialName = 'Basic plan · free trial with every Business feature';
    await page.getByRole('link', { name: trialName }).waitFor();
    // One rule for the days and the date: on day one, 29 days that run to the day before the trial's end, and no
    // second, later date beside them.
    const banner = await page.locator('.alert', { hasText: 'left on the trial' }).innerText();
    const lastDay = dayWords(new Date(trialEnd.getTime() - 86_400_000));
    expect(banner).to.include(`There are 29 days left on the trial. Add a card by ${lastDay} to keep your widgets online after it.`);
    expect(banner).to.not.include(dayWords(trialEnd));
    await shots(page, 'dashboard-in-trial');
    await page.goto(at('/account'));
    expect(await page.locator('.account-status').innerText()).to.equal(trialName);
    // On a phone every plan tile is whole on the screen, the current one included: nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.plan-tile--current').waitFor();
    const tiles = await page.locator('.plan-tile').evaluateAll((all) =>
      all.map((tile) => {
        const box = tile.getBoundingClientRect();
        return box.left >= 0 && box.right <= window.innerWidth;
      }),
    );
    expect(tiles.length).to.be.greaterThan(1);
    expect(tiles.every(Boolean)).to.equal(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).to.equal(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Bots (Integrations): not locked, a bot joins each new conversation.
    await page.goto(at(`/settings/${ceId}/integrations`));
    expect(await page.getByRole('link', { name: /needs (Pro|Business)/ }).count()).to.equal(0);
    const slackRow = page.getByRole('row', { name: /Slack/ });
    await slackRow.getByRole('button', { name: 'configure' }).click();
    const modal = page.getByRole('dialog', { name: 'Configure Bots and Users' });
    await modal.getByRole('button', { name: 'Add Bot helperbot' }).click();
    await modal.getByRole('button', { name: 'Remove helperbot' }).waitFor();
    await modal.getByRole('button', { name: 'Done' }).click();
    await slackRow.getByRole('cell', { name: /^1 bot/ }).waitFor();

    // A trigger.
    await page.goto(at(`/settings/${ceId}/triggers`));
    await page.getByRole('button', { name: 'Add new trigger' }).click();
    const trigger = page.locator('.trigger').first();
    await trigger.getByLabel('Message').fill('Need a hand choosing a plan?');
    await trigger.getByLabel('After (seconds)').fill('3');
    await trigger.getByLabel('On pages (one per line)').fill('/pricing');
    await trigger.getByRole('button', { name: 'Save Changes' }).click();
    await trigger.getByRole('button', { name: 'Saved' }).waitFor();

    // A question group.
    await page.goto(at(`/settings/${ceId}/question-groups`));
    await page.getByRole('button', { name: 'New Question Group' }).click();
    const editor = page.locator('.qg-editor');
    await editor.getByLabel('Label').fill('Triage');
    await editor.getByLabel('Shortcut').fill('triage');
    await editor.getByLabel('Prompt').fill('One quick question first.');
    await editor.getByLabel('Question', { exact: true }).fill('Sales or support?');
    const answers = editor.getByLabel('Answer', { exact: true });
    await answers.nth(0).fill('Sales');
    await answers.nth(1).fill('Support');
    await editor.getByLabel('Then').nth(0).selectOption('form');
    await editor.getByLabel('Then').nth(1).selectOption('form');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await editor.getByRole('status').getByText('Saved').waitFor();

    // Reports.
    await page.goto(at('/reports/overview'));
    await page.getByRole('navigation', { name: 'Reports' }).waitFor();
    expect(await page.getByText('Your plan does not have access to reports.').count()).to.equal(0);

    // The Account screen: the trial has every Business feature, then Basic applies without what it lists.
    await page.goto(at('/account'));
    await page
      .getByText(
        `Your trial has every Business feature until it ends: reports, triggers, saved replies, bots, question groups, white label, phone support, unlimited operators and 10 channels. Then your Basic plan applies: without reports, triggers, bots, question groups, white label and phone support, and with 3 operators a month, 1 channel and 300 conversations a month. Anything you set up is kept either way.`,
      )
      .waitFor();
    // The trial's end is one date on the page: the banner's last day to add a card, not a later "ends on" beside it
    // (the day a saved card is first charged is said as that).
    expect(await page.getByText(`ends on ${dayWords(trialEnd)}`).count()).to.equal(0);
    await page.getByText(`A card added now is saved, not charged before ${dayWords(trialEnd)}.`).waitFor();
    await shots(page, 'account-in-trial', '.plan-tiles');

    // The trial ends with a card saved for Basic: the account now pays for Basic.
    const session = await fetch(`${server.url}/v1/accounts/${trial.accountId}/create_checkout_session`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${trial.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ plan: 'parley_basic_monthly' }),
    });
    await fetch((await payCheckout(((await session.json()) as { url: string }).url)).location, { redirect: 'manual' });
    await endTrialNow(server, trial.accountId);

    await page.goto(at('/'));
    await page.reload();
    await page.getByText(SWITCHED_OFF).waitFor();
    await page.getByRole('link', { name: 'Basic plan' }).waitFor();
    await shots(page, 'dashboard-switched-off');

    await page.goto(at(`/settings/${ceId}/triggers`));
    await page.getByRole('link', { name: 'Triggers (needs Pro)' }).waitFor();
    await page.getByText('Your plan does not have access to triggers.').waitFor();
    await page.getByText('Anything set up here is kept, and works again on a plan that includes it.').waitFor();
    await page.getByRole('link', { name: 'Question Groups (needs Business)' }).waitFor();
    await page.getByRole('link', { name: 'Integrations (needs Pro)' }).waitFor();
    await shots(page, 'triggers-switched-off');
    await page.goto(at('/reports/overview'));
    await page.getByText('Your plan does not have access to reports.').waitFor();
    // Kept, not deleted.
    const ce = await server.models.ChatEndpoint.findById(ceId);
    expect(ce?.triggerJson).to.include('Need a hand choosing a plan?');

    await page.goto(at('/account'));
    await page.getByRole('region', { name: 'Plan' }).getByText(SWITCHED_OFF).waitFor();
    await shots(page, 'account-switched-off', '.plan-tiles');
    await page.getByRole('article', { name: 'Business plan' }).getByRole('button', { name: 'Upgrade' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Upgrade' }).click();
    await page.getByText('Successfully updated account plan.').waitFor();
    expect(await page.getByText(SWITCHED_OFF).count()).to.equal(0);

    // Everything set up during the trial is back.
    await page.goto(at(`/settings/${ceId}/triggers`));
    await page.getByRole('button', { name: /^Need a hand choosing a plan\? after 3 sec/ }).waitFor();
    await page.goto(at(`/settings/${ceId}/question-groups`));
    await page.locator('.qg-card', { hasText: 'Triage' }).waitFor();
    await page.goto(at(`/settings/${ceId}/integrations`));
    await page
      .getByRole('row', { name: /Slack/ })
      .getByRole('cell', { name: /^1 bot/ })
      .waitFor();
    await page.goto(at('/reports/overview'));
    await page.getByRole('navigation', { name: 'Reports' }).waitFor();
  });
});
