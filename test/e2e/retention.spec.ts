/**
 * Data retention on the Account screen (browser): an admin turns it on with a worded error for an out-of-range
 * period, saves it, and the Reports screen says how far back its data goes; a phone shows the same section.
 */
import { expect } from 'chai';
import { planStripeId } from '../../server/shared/plans';
import { RETENTION_MESSAGES } from '../../server/shared/retention';
import { useServer } from '../helpers/app';
import { picture, screenshotPath, useBrowser } from '../helpers/browser';
import { signedInAdmin } from './consoleHelpers';

describe('Data retention (browser)', function () {
  this.timeout(120_000);
  const server = useServer();

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    describe(`at ${viewport.width}×${viewport.height}`, () => {
      const browser = useBrowser({ viewport });

      it('turns retention on with a checked period and the reports say how far back data goes', async function () {
        const { page } = browser;
        const { accountId } = await signedInAdmin(server, page);
        // Reports need a plan that has them.
        await server.models.Account.updateOne({ _id: accountId }, { $set: { planStripeId: planStripeId('business', 'monthly') } });
        await page.goto(`${server.url}/app/#/account`);
        const section = page.getByRole('region', { name: 'Data retention' });
        await section.getByLabel('Delete old conversations').check();
        const days = section.getByLabel('Keep conversations for (days)');
        await days.fill('10');
        await section.getByRole('button', { name: 'Save data retention' }).click();
        await section.getByText(RETENTION_MESSAGES.range).waitFor();
        expect((await server.models.Account.findById(accountId))?.retentionDays).to.equal(null);
        await days.fill('90');
        await section.getByRole('button', { name: 'Save data retention' }).click();
        await section.getByRole('button', { name: 'Saved' }).waitFor();
        expect((await server.models.Account.findById(accountId))?.retentionDays).to.equal(90);
        await section.scrollIntoViewIfNeeded();
        await picture(page, screenshotPath(`${this.test?.fullTitle()} account`));

        await page.goto(`${server.url}/app/#/reports/overview`);
        await page.getByText('Data goes back 90 days: older conversations are deleted (data retention, on the Account page).').waitFor();
        await picture(page, screenshotPath(`${this.test?.fullTitle()} reports`));

        await page.goto(`${server.url}/app/#/account`);
        await section.getByLabel('Delete old conversations').uncheck();
        await section.getByRole('button', { name: 'Save data retention' }).click();
        await section.getByRole('button', { name: 'Saved' }).waitFor();
        expect((await server.models.Account.findById(accountId))?.retentionDays).to.equal(null);
      });
    });
  }
});
