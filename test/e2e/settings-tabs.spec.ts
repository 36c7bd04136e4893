/**
 * The gated settings tabs through the real console (browser): Triggers, Saved Replies, Question Groups and
 * Integrations. Each test changes values, saves, reloads to see them kept, and checks what visitors (the widget
 * on the demo site, another origin) or Slack (the sandbox) get from them. Screenshots of each tab at 1280×800
 * and 390×844 land in test-results/settings/.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { payingOn, signUpUser } from '../factories';
import { useServer } from '../helpers/app';
import { picturesAtBothSizes, useBrowser } from '../helpers/browser';
import { ACME, firstWidgetId, setUpWidget } from '../slack/helpers';
import { acceptTerms } from './consoleHelpers';
import { threadWith, waitFor } from './widgetHelpers';

const HELPER_BOT = 'U0HELPER01';

describe('settings tabs: triggers, saved replies, question groups, integrations (browser)', function () {
  this.timeout(120_000);
  const server = useServer();
  const browser = useBrowser({ context: 'suite', page: 'suite' });

  type Owner = { ceId: string; uuid: string; channel: string; token: string };

  /** A new owner on the Business plan (every feature), signed in in `page`, with a widget linked to a new channel. */
  async function owner(page: Page): Promise<Owner> {
    const { token } = await signUpUser(server);
    const ceId = await firstWidgetId(server, token);
    const channel = await setUpWidget(server, token, ceId);
    await acceptTerms(server, token);
    const ce = await server.models.ChatEndpoint.findById(ceId);
    if (!ce) throw new Error('widget gone');
    await payingOn(server, 'parley_business_monthly', { accountId: ce.accountId });
    await page.context().addCookies([{ name: 'auth_token', value: token, url: server.url }]);
    return { ceId, uuid: ce.Uuid, channel, token };
  }

  const tab = (o: Owner, name: string) => `${server.url}/app/#/settings/${o.ceId}/${name}`;
  const widgetOf = (page: Page) => page.locator('parley-widget');

  /** Screenshots of the page at 1280×800 and 390×844. */
  const shots = (page: Page, name: string) => picturesAtBothSizes(page, 'settings', name);

  async function say(page: Page, text: string): Promise<void> {
    const w = widgetOf(page);
    await w.locator('.launcher').click();
    await w.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
    await w.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    await w.locator('.msg.visitor:not(.sending)', { hasText: text }).waitFor();
  }

  it('saves triggers that persist and fire on the demo site after N seconds on matching pages only', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'triggers'));
    await page.getByRole('heading', { name: 'No triggers yet' }).waitFor();

    const delay = page.getByLabel('Minimum delay between triggers (minutes)');
    await delay.fill('12345x');
    expect(await delay.inputValue()).to.equal('1234');
    await delay.fill('0');
    await page.locator('.triggers__delay').getByRole('button', { name: 'Save Changes' }).click();
    await page.locator('.triggers__delay').getByRole('button', { name: 'Saved' }).waitFor();

    await page.getByRole('button', { name: 'Add new trigger' }).click();
    const first = page.locator('.trigger').nth(0);
    await first.getByRole('button', { name: 'New trigger' }).waitFor();
    expect(await first.getByRole('button', { name: 'Save Changes' }).isDisabled()).to.equal(true);
    expect(await first.locator('.field__error').count()).to.equal(0);
    await first.getByLabel('Message').fill('Need help choosing a roast?');
    await first.getByLabel('After (seconds)').fill('1');
    await first.getByLabel('On pages (one per line)').fill('page=pricing\npage=pricing, ');
    await first.getByLabel('Contains').check();
    await first.getByRole('button', { name: 'Save Changes' }).click();
    await first.getByRole('button', { name: 'Saved' }).waitFor();
    expect(await first.getByLabel('On pages (one per line)').inputValue()).to.equal('page=pricing');

    await page.getByRole('button', { name: 'Add new trigger' }).click();
    const second = page.locator('.trigger').nth(1);
    await second.getByLabel('Message').fill('Still looking around?');
    await second.getByLabel('Message').fill('');
    await second.getByText('Enter the message to show.').waitFor();
    await second.getByLabel('Message').fill('Still looking around?');
    await second.getByLabel('After (seconds)').fill('2');
    await second.getByLabel('On pages (one per line)').fill('widget=');
    await second.getByRole('button', { name: 'Save Changes' }).click();
    await second.getByRole('button', { name: 'Saved' }).waitFor();
    await page.getByRole('button', { name: 'Add new trigger' }).click();
    await page.locator('.trigger').nth(2).getByRole('button', { name: 'Remove' }).click();
    expect(await page.locator('.trigger').count()).to.equal(2);

    await page.reload();
    await page.getByRole('button', { name: 'Need help choosing a roast? after 1 sec page=pricing' }).waitFor();
    await page.getByRole('button', { name: 'Still looking around? after 2 sec widget=' }).click();
    expect(await page.getByLabel('Minimum delay between triggers (minutes)').inputValue()).to.equal('0');
    expect(await page.locator('.trigger').nth(1).getByLabel('Starts with').isChecked()).to.equal(false);
    await shots(page, 'triggers');

    // Not a pricing page: the 2-second trigger shows, the 1-second one never did.
    const visitor = await browser.newPage();
    await visitor.goto(`${server.demoUrl}/?widget=${o.uuid}`);
    await widgetOf(visitor).locator('.peek').getByText('Still looking around?').waitFor();
    expect(await widgetOf(visitor).getByText('Need help choosing a roast?').count()).to.equal(0);
    const pricing = await browser.newPage();
    await pricing.goto(`${server.demoUrl}/?widget=${o.uuid}&page=pricing`);
    await widgetOf(pricing).locator('.peek').getByText('Need help choosing a roast?').waitFor();

    // Removing a saved trigger saves at once.
    await page.locator('.trigger').nth(1).getByRole('button', { name: 'Remove' }).click();
    await waitFor('the trigger removed on the server', async () => {
      const ce = await server.models.ChatEndpoint.findById(o.ceId);
      const set = JSON.parse(ce?.triggerJson ?? '{}') as { triggers: unknown[] };
      return set.triggers.length === 1 ? true : undefined;
    });
  });

  it('creates, edits and deletes saved replies that persist, and an auto-send reply answers a visitor', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'saved-replies'));
    await page.getByRole('heading', { name: 'Add your first saved reply' }).waitFor();
    await shots(page, 'saved-replies-empty');
    await page.getByRole('button', { name: 'Create new reply' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Saved Reply' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.locator('.field--invalid').first().waitFor();
    expect(await dialog.locator('.field--invalid').count()).to.equal(2);
    await dialog.getByLabel('Label').fill('Pricing');
    await dialog.getByLabel('Trigger Phrase(s)').fill('how much, price');
    await dialog.getByLabel('Shortcut').fill('price');
    await dialog.getByLabel('Response').fill('Plans start at 29 € — "Basic" & more');
    await dialog.getByLabel('Auto send').check();
    await shots(page, 'saved-replies-modal');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Plans start at 29 € — "Basic" & more' }).waitFor();

    await page.getByRole('button', { name: 'Create new reply' }).click();
    const second = page.getByRole('dialog', { name: 'Create New Saved Reply' });
    await second.getByLabel('Label').fill('Hours');
    await second.getByLabel('Response').fill('We answer 9 to 5.');
    await second.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'We answer 9 to 5.' }).waitFor();
    await page.getByRole('button', { name: 'Edit Hours' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Saved Reply' });
    await edit.getByLabel('Response').fill('We answer 9 to 6, Monday to Friday.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'We answer 9 to 6, Monday to Friday.' }).waitFor();
    await shots(page, 'saved-replies');

    await page.reload();
    const row = page.getByRole('row', { name: /Pricing/ });
    await row.waitFor();
    expect((await row.getByRole('cell').allInnerTexts()).slice(0, 5)).to.deep.equal([
      'Pricing',
      'how much, price',
      '',
      'price',
      'Plans start at 29 € — "Basic" & more',
    ]);
    expect(await row.locator('.table__check').count()).to.equal(1);
    expect(await page.getByRole('row', { name: /Hours/ }).locator('.table__check').count()).to.equal(0);

    const visitor = await browser.newPage();
    await visitor.goto(`${server.demoUrl}/?widget=${o.uuid}`);
    await say(visitor, 'Hi, how much is the coffee club?');
    await widgetOf(visitor).locator('.msg.operator', { hasText: 'Plans start at 29 € — "Basic" & more' }).waitFor();

    await page.getByRole('button', { name: 'Delete Hours' }).click();
    await page.getByRole('dialog', { name: 'Delete saved reply?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('cell', { name: 'We answer 9 to 6, Monday to Friday.' }).waitFor({ state: 'detached' });
    expect(await server.models.SavedReply.countDocuments({ ceId: o.ceId })).to.equal(1);
  });

  it('builds a question group with a reordered tree that persists and runs in the widget', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'question-groups'));
    await page.getByRole('button', { name: 'New Question Group' }).click();
    const editor = page.locator('.qg-editor');
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await editor.getByText('Error: check for errors above.').waitFor();
    expect(await editor.getByText('Required.', { exact: true }).count()).to.equal(4);
    // Every new answer already has its Then (end the questions): only the texts are missing.
    expect(await editor.getByText('Select an option.').count()).to.equal(0);

    await editor.getByLabel('Label').fill('Triage');
    await editor.getByLabel('Shortcut').fill('triage');
    await editor.getByLabel('Trigger Automatically').check();
    await editor.getByLabel('Prompt').fill('x'.repeat(1025));
    await editor.getByText('Exceeds 1024 characters.').waitFor();
    await editor.getByLabel('Prompt').fill('Hi! One quick question first.');
    await editor.getByLabel('Question', { exact: true }).fill('Sales or support?');
    const answers = editor.getByLabel('Answer', { exact: true });
    await answers.nth(0).fill('Sales');
    await answers.nth(1).fill('Support');
    await editor.getByLabel('Then').nth(0).selectOption('form');
    await editor.getByLabel('Then').nth(1).selectOption('customResponse');
    await editor.getByLabel('Custom response').fill('Our support team replies within the hour.');
    // Keyboard drag and drop: Support moves above Sales.
    await editor.getByRole('button', { name: 'Move answer Support' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('Picked up answer Support.').waitFor({ state: 'attached' });
    // dnd-kit measures the drop targets after the pick-up; on a loaded machine a first arrow key can come before
    // that and move nothing, as a person would see and press again.
    const over = page.getByText('answer Support is over answer Sales.');
    for (let attempt = 0; attempt < 5 && (await over.count()) === 0; attempt++) {
      await page.keyboard.press('ArrowUp');
      await over.waitFor({ state: 'attached', timeout: 3000 }).catch(() => undefined);
    }
    await over.waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await waitFor('Support first', async () => ((await answers.nth(0).inputValue()) === 'Support' ? true : undefined));
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await editor.getByRole('status').getByText('Saved').waitFor();
    await page.locator('.qg-card', { hasText: 'Triage' }).getByText('Triggered Automatically').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shots(page, 'question-groups');

    await page.reload();
    const card = page.locator('.qg-card', { hasText: 'Triage' });
    await card.getByText('Triggered Automatically').waitFor();
    await card.getByText('Hi! One quick question first.').waitFor();
    expect(
      await page.getByLabel('Answer', { exact: true }).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
    ).to.deep.equal(['Support', 'Sales']);
    expect(await page.getByLabel('Then').nth(0).inputValue()).to.equal('customResponse');
    // Unsaved edits are not dropped by opening another group without asking.
    await page.locator('.qg-editor').getByLabel('Label').fill('Triage, edited');
    await page.locator('.qg-card--add').click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('.qg-editor').getByLabel('Label').inputValue()).to.equal('Triage, edited');

    const visitor = await browser.newPage();
    await visitor.goto(`${server.demoUrl}/?widget=${o.uuid}`);
    await say(visitor, 'Hello there');
    const w = widgetOf(visitor);
    await w.getByText('Sales or support?').waitFor();
    await w.getByRole('button', { name: 'Support' }).click();
    await w.getByText('Our support team replies within the hour.').waitFor();

    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove question group?' });
    await confirm
      .getByText('Warning, deleting this question group will delete across all widgets, are you sure you want to remove?')
      .waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('heading', { name: 'Add your first question group' }).waitFor();
  });

  it('adds a bot and a person to new conversations, kept after reload, and the bot joins the next Slack thread', async () => {
    const page = browser.page;
    const o = await owner(page);
    await page.goto(tab(o, 'integrations'));
    const row = page.getByRole('row', { name: /Slack/ });
    await row.getByRole('cell', { name: 'Disabled' }).waitFor();
    await row.getByRole('button', { name: 'configure' }).click();
    const modal = page.getByRole('dialog', { name: 'Configure Bots and Users' });
    await modal.getByRole('button', { name: 'Add Bot helperbot' }).click();
    await modal.getByRole('button', { name: 'Remove helperbot' }).waitFor();
    await modal.getByLabel('Show all users, not just bots').check();
    await modal.getByRole('button', { name: 'Add bob' }).click();
    await modal.getByRole('button', { name: 'Remove bob' }).waitFor();
    await modal.getByRole('button', { name: 'Add carol' }).click();
    await modal.getByRole('button', { name: 'Remove carol' }).click();
    await modal.getByRole('button', { name: 'Add carol' }).waitFor();
    await shots(page, 'integrations-modal');
    await modal.getByRole('button', { name: 'Done' }).click();
    await row.getByRole('cell', { name: '1 bot and 1 teammate join each new conversation' }).waitFor();
    await shots(page, 'integrations');

    await page.reload();
    await page.getByRole('row', { name: /Slack/ }).getByRole('cell', { name: '1 bot and 1 teammate join each new conversation' }).waitFor();

    const visitor = await browser.newPage();
    await visitor.goto(`${server.demoUrl}/?widget=${o.uuid}`);
    await say(visitor, 'Is a bot around?');
    await waitFor('the bot mentioned in the thread', () =>
      threadWith(server, o.channel, 'Is a bot around?')?.replies.find((r) => r.text.startsWith(`Added <@${HELPER_BOT}>`)),
    );
    expect(server.slack.state.channel(o.channel)?.members).to.include(HELPER_BOT);

    // Without users:read the modal asks for expanded permissions and dims its tables.
    const inst = server.slack.state.installation(ACME);
    if (!inst) throw new Error('not installed');
    const granted = inst.botScopes;
    inst.botScopes = granted.filter((s) => s !== 'users:read');
    try {
      await page.getByRole('row', { name: /Slack/ }).getByRole('button', { name: 'configure' }).click();
      await modal.getByRole('link', { name: 'Authorize expanded permissions' }).waitFor();
      expect(await modal.getByRole('link', { name: 'Authorize expanded permissions' }).getAttribute('href')).to.equal('/app/#/permissions');
      expect(await modal.locator('.bots__tables--dimmed').count()).to.equal(1);
      await shots(page, 'integrations-missing-scope');
    } finally {
      inst.botScopes = granted;
    }
  });
});
