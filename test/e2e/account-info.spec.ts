/**
 * Account Info on the Account screen (browser): an admin's invalid invoice e-mail is refused in words and changes
 * nothing; a valid form says Saved, is kept by Parley and reaches the Stripe customer, and shows again after a reload.
 */
import { expect } from 'chai';
import { useServer } from '../helpers/app';
import { useBrowser } from '../helpers/browser';
import { signedInAdmin } from './consoleHelpers';

describe('Account Info (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser();

  it('refuses an invalid invoice e-mail with its reason, then saves the form to Parley and to Stripe', async () => {
    const { page } = browser;
    const { accountId } = await signedInAdmin(server, page);
    await page.goto(`${server.url}/app/#/account`);
    const section = page.getByRole('region', { name: 'Account Info' });
    await section.getByLabel('Organisation name').fill('Acme & Co');
    await section.getByLabel('Invoice e-mail').fill('billing-at-acme');
    await section.getByRole('button', { name: 'Save account info' }).click();
    await section
      .getByRole('alert')
      .getByText(/Invoice e-mail is invalid/)
      .waitFor();
    expect((await server.models.Account.findById(accountId))?.orgName ?? '').to.equal('');

    await section.getByLabel('Invoice e-mail').fill('Billing@Acme.example');
    await section.getByLabel('Country code (US, DE …)').fill('de');
    await section.getByRole('button', { name: 'Save account info' }).click();
    await section.getByRole('button', { name: 'Saved' }).waitFor();
    // The error of the failed save is gone once a save succeeds.
    expect(await section.getByRole('alert').count()).to.equal(0);
    const account = await server.models.Account.findById(accountId);
    expect(account).to.include({ orgName: 'Acme & Co', email: 'billing@acme.example', billingCountry: 'DE' });
    const customer = server.stripe.state.data.customers.find((c) => c.id === account?.stripeCustomerId);
    expect(customer).to.include({ name: 'Acme & Co', email: 'billing@acme.example' });

    await page.reload();
    expect(await section.getByLabel('Organisation name').inputValue()).to.equal('Acme & Co');
    expect(await section.getByLabel('Country code (US, DE …)').inputValue()).to.equal('DE');
  });
});
