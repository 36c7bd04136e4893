/**
 * The Account screen's team sections and the public pages through the real UI (browser): inviting a teammate who
 * joins and sees only what a non-admin may, toggling and deleting users, regenerating an API key, the GDPR export
 * and erasure, and the Docs and FAQs links of every place.
 */

import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { TERMS_VERSION } from '../../server/shared/constants';
import { planStripeId } from '../../server/shared/plans';
import { createUserInDb, uniqueEmail } from '../factories';
import { useServer } from '../helpers/app';
import { picture, RESULTS_DIR, useBrowser } from '../helpers/browser';
import { unzip } from '../helpers/zip';
import { eventually } from '../slack/helpers';
import { signedInAdmin as signedIn } from './consoleHelpers';

describe('Account team sections, docs and pricing (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite', page: 'suite' });

  const at = (hashPath: string) => `${server.url}/app/#${hashPath}`;

  const signedInAdmin = (page: Page) => signedIn(server, page);

  it('invites a teammate who sets a password, joins as a non-admin and sees only what a non-admin may; the admin toggles and deletes', async () => {
    const { page } = browser;
    await signedInAdmin(page);
    await page.goto(at('/account'));
    const invitee = uniqueEmail('mate');
    await page.getByLabel('Invite by e-mail').fill(invitee);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText(`Successfully invited user ${invitee}`).waitFor();
    const row = page.getByRole('row').filter({ hasText: invitee });
    await row.getByText('Invited').waitFor();

    await page.getByLabel('Invite by e-mail').fill(invitee);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('User already exists').waitFor();

    const mail = await server.outbox.latestTo(invitee);
    const link = /https?:\/\/\S+accept-invite\?token=[A-Za-z0-9]{64}/.exec(mail?.text ?? '')?.[0];
    expect(link, 'invitation link in the mail').to.be.a('string');

    const mate = await browser.newPage();
    await mate.goto(link ?? '');
    await mate.getByRole('heading', { name: 'Join your team on Parley' }).waitFor();
    await mate.getByLabel('Password').fill('teammate password');
    const join = mate.getByRole('button', { name: 'Join and sign in' });
    expect(await join.isDisabled()).to.equal(true);
    await mate.getByRole('checkbox').check();
    await join.click();
    await mate.waitForURL(/#\/$/);
    await mate.getByRole('navigation', { name: 'Main' }).getByText('Dashboard').waitFor();
    expect(await mate.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).count()).to.equal(0);
    expect(await mate.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).count()).to.equal(0);
    await mate.goto(at('/account'));
    await mate.getByText('Contact an admin on your account to add a payment method').waitFor();
    for (const admin of ['Users', 'API keys', 'GDPR', 'Account Info']) {
      expect(await mate.getByRole('heading', { name: admin, exact: true }).count(), admin).to.equal(0);
    }

    await page.reload();
    await row.getByText('Active').waitFor();
    await row.getByRole('switch').click();
    await page.getByText('Successfully updated user').waitFor();
    await eventually(async () => expect(await row.getByRole('switch').isChecked()).to.equal(true));
    expect(await row.getByRole('button', { name: 'Delete' }).count(), 'admins cannot be deleted').to.equal(0);
    await row.getByRole('switch').click();
    await row.getByRole('button', { name: 'Delete' }).waitFor();
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete user' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await server.models.User.countDocuments({ email: invitee })).to.equal(0);
    const own = page.getByRole('row').filter({ hasText: '(you)' });
    expect(await own.getByRole('button', { name: 'Delete' }).count()).to.equal(0);
    await own.getByRole('img', { name: 'Admin (you)' }).waitFor();
  });

  it('tells a non-admin who opens the Account page that only admins see it, showing no plan, card, invoices or usage', async () => {
    const admin = await signedInAdmin(browser.page);
    const account = await server.models.Account.findById(admin.accountId);
    const member = await createUserInDb(server, { admin: false, ActiveTOSPP: TERMS_VERSION, account: account ?? undefined });
    const dir = path.join(RESULTS_DIR, 'account');
    for (const [name, viewport] of [
      ['1280', { width: 1280, height: 800 }],
      ['390', { width: 390, height: 844 }],
    ] as const) {
      const mate = await browser.newPage({ viewport });
      await mate.context().addCookies([{ name: 'auth_token', value: member.token, url: server.url }]);
      await mate.goto(at('/account'));
      await mate.getByRole('heading', { name: 'Only admins can see this page' }).waitFor();
      await mate.getByText('Contact an admin on your account to add a payment method').waitFor();
      for (const section of ['Plan', 'Billing Info', 'Plan Usage', 'Recent Invoices', 'Account Info', 'Users', 'API keys', 'GDPR']) {
        expect(await mate.getByRole('heading', { name: section, exact: true }).count(), section).to.equal(0);
      }
      await picture(mate, path.join(dir, `non-admin-${name}.png`));
      await mate.getByRole('link', { name: 'Back to the dashboard' }).click();
      await mate.waitForURL(/#\/$/);
    }
    // The upsell a full plan leads to is a billing page too.
    const mate = await browser.newPage();
    await mate.context().addCookies([{ name: 'auth_token', value: member.token, url: server.url }]);
    await mate.goto(at('/please-upgrade'));
    await mate.getByRole('heading', { name: 'Only admins can see this page' }).waitFor();
    expect(await mate.getByRole('button', { name: 'Yes, I want to upgrade' }).count()).to.equal(0);
  });

  it('shows a new API key once and revokes the old one at once when regenerated', async () => {
    const { page } = browser;
    await signedInAdmin(page);
    await page.goto(at('/account'));
    await page.getByRole('button', { name: 'Generate' }).first().click();
    const first = await page.getByLabel('New API key').inputValue();
    expect(first).to.match(/^pk_/);
    const me = (key: string) => fetch(`${server.url}/v1/api/me`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect(await me(first)).to.equal(200);
    await page.getByRole('button', { name: 'Regenerate' }).first().click();
    await page.getByRole('dialog').getByText('Regenerating revokes the current key at once').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke and regenerate' }).click();
    await eventually(async () => expect(await page.getByLabel('New API key').inputValue()).to.not.equal(first));
    const second = await page.getByLabel('New API key').inputValue();
    expect(await me(first)).to.equal(401);
    expect(await me(second)).to.equal(200);
    await page.reload();
    await page.getByText(`${second.slice(0, 8)}…`).waitFor();
  });

  it('exports the account to a downloadable archive that holds the conversation, then erases the visitor from the history', async () => {
    const { page } = browser;
    const admin = await signedInAdmin(page);
    const { models } = server;
    await models.Account.updateOne({ _id: admin.accountId }, { $set: { planStripeId: planStripeId('pro', 'monthly') } });
    const visitor = await models.Visitor.create({
      accountId: admin.accountId,
      ceId: admin.ceId,
      tokenHash: `e2e-${Date.now()}`,
      name: 'Erin Erasable',
      email: 'erin.erasable@example.org',
    });
    const conversation = await models.Conversation.create({
      accountId: admin.accountId,
      ceId: admin.ceId,
      number: 1,
      visitorId: visitor._id,
      status: 'ended',
      endedAt: new Date(),
    });
    await models.Message.create({
      conversationId: conversation._id,
      seq: 1,
      kind: 'msg',
      from: 'visitor',
      text: 'Please keep my order private',
    });

    await page.goto(at('/account'));
    await page.getByRole('button', { name: 'Request export' }).click();
    const download = page.getByRole('link', { name: 'Download export' });
    await download.waitFor({ timeout: 30_000 });
    const href = (await download.getAttribute('href')) ?? '';
    expect(href.length).to.be.greaterThan(6);
    const archive = Buffer.from(await (await fetch(href)).arrayBuffer());
    const files = await unzip(archive);
    for (const [name, text] of files) {
      if (name.endsWith('.jsonl')) for (const line of text.split('\n').filter(Boolean)) JSON.parse(line);
    }
    expect(files.get('messages.jsonl')).to.include('Please keep my order private');
    expect(files.get('visitors.jsonl')).to.include('erin.erasable@example.org');

    const history = async () =>
      await (await fetch(`${server.url}/v1/reports/${admin.ceId}/chats`, { headers: { Authorization: `Bearer ${admin.token}` } })).text();
    expect(await history()).to.include('erin.erasable@example.org');
    await page.getByLabel('Visitor e-mail or visitor id').fill('erin.erasable@example.org');
    await page.getByRole('button', { name: 'Erase visitor' }).click();
    await page.getByRole('dialog').getByText('The Slack threads stay as Slack holds them').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Erase visitor' }).click();
    await page.getByText('Erased: 1 visitor record(s), 1 conversation(s) emptied, 1 message(s)').waitFor();
    const after = await history();
    expect(after).to.not.include('erin.erasable@example.org').and.not.include('Erin Erasable');
    expect(await models.Message.countDocuments({ conversationId: conversation._id })).to.equal(0);
    await page.getByRole('list', { name: 'Erasures' }).getByText('by e-mail').waitFor();
  });

  it('opens real Docs and FAQs pages from the header, the sidebar, setup step 3, Support and the saved replies tab', async () => {
    const { page } = browser;
    const admin = await signedInAdmin(page);
    await server.models.ChatEndpoint.updateOne(
      { _id: admin.ceId },
      { $set: { Step: 3, RoomId: 'C0DOCS0001', RoomName: 'support', slackTeamId: 'T0DOCS', slackBaseUrl: 'https://docs-test.slack.com/' } },
    );
    const opens = async (from: string, click: () => Promise<void>, expectHeading: RegExp) => {
      await page.goto(at(from));
      await click();
      await page.getByRole('heading', { level: 1, name: expectHeading }).waitFor();
      expect(await page.title(), from).to.match(/· Parley$/);
    };
    const docs = /Parley documentation/;
    const header = page.getByRole('banner').getByRole('navigation', { name: 'Help' });
    await opens('/', () => header.getByRole('link', { name: 'Docs' }).click(), docs);
    await opens('/', () => header.getByRole('link', { name: 'FAQs' }).click(), /Simple pricing/);
    expect(page.url()).to.match(/\/pricing\/#FAQ$/);
    expect(await page.locator('#FAQ').isVisible()).to.equal(true);
    // The sidebar's Docs and FAQs show in the phone menu.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.context().addCookies([{ name: 'auth_token', value: admin.token, url: server.url }]);
    for (const [name, heading] of [
      ['Docs', docs],
      ['FAQs', /Simple pricing/],
    ] as const) {
      await phone.goto(at('/'));
      await phone.getByRole('button', { name: 'Open menu' }).click();
      await phone.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
      await phone.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    await opens(`/setup/${admin.ceId}`, () => page.getByRole('link', { name: /Read the docs/ }).click(), docs);
    await opens(
      '/support',
      () =>
        page
          .getByRole('main')
          .getByRole('link', { name: /Documentation/ })
          .click(),
      docs,
    );
    await opens('/support', () => page.getByRole('main').getByRole('link', { name: /FAQs/ }).click(), /Simple pricing/);
    await opens(`/settings/${admin.ceId}/saved-replies`, () => page.getByRole('link', { name: 'Read the docs' }).click(), docs);
    await page.getByRole('heading', { name: 'Saved replies' }).first().waitFor();
    // The docs' own sidebar reaches every page.
    await page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: 'REST API and REST hooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'REST API and REST hooks' }).waitFor();
  });
});
