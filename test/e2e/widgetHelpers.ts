/** What the widget browser specs share: a configured widget, waiting on Slack state, screenshots. */
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { ChatEndpoint } from '../../server/models/ChatEndpoint';
import type { Message } from '../../server/sandbox/slack/types';
import { signUpUser } from '../factories';
import type { TestServer } from '../helpers/app';
import { picture, RESULTS_DIR } from '../helpers/browser';
import { ACME, ALICE, firstWidgetId, setUpWidget } from '../slack/helpers';

export type Widget = { uuid: string; channel: string; ceId: string };

/** A new account's widget, set up through Slack (Step 3, linked to a sandbox channel), with `settings` applied. */
export async function configuredWidget(server: TestServer, settings: Partial<ChatEndpoint> = {}): Promise<Widget> {
  const user = await signUpUser(server);
  const ceId = await firstWidgetId(server, user.token);
  const channel = await setUpWidget(server, user.token, ceId);
  if (Object.keys(settings).length > 0) await server.models.ChatEndpoint.updateOne({ _id: ceId }, { $set: settings });
  const ce = await server.models.ChatEndpoint.findById(ceId);
  if (!ce) throw new Error('the widget just set up is gone');
  return { uuid: ce.Uuid, channel, ceId };
}

/** Polls `read` until it answers something other than undefined or null. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T | null | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== null) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The Slack thread whose replies include `text`: its parent and replies. */
export function threadWith(server: TestServer, channel: string, text: string): { parent: Message; replies: Message[] } | undefined {
  for (const parent of server.slack.state.channelMessages(channel)) {
    const replies = server.slack.state.replies(channel, parent.ts);
    if (replies.some((r) => r.text.includes(text))) return { parent, replies };
  }
  return undefined;
}

/** Saves test-results/widget/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = path.join(RESULTS_DIR, 'widget');
  await transitionsDone(page);
  await picture(page, path.join(dir, `${name}.png`));
}

/**
 * Waits until the widget's finite animations (the panel opening, a peek sliding in) are over, so a picture shows
 * what a person sees; endless ones (a typing indicator) are left running.
 */
async function transitionsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.querySelector('parley-widget')?.shadowRoot;
    return !root || root.getAnimations().every((a) => a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY);
  });
}

/** Waits until the panel's opening animation is over, so its box is where it stays. */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const frame = document.querySelector('parley-widget')?.shadowRoot?.querySelector('.frame');
    return !!frame && frame.getAnimations().length === 0;
  });
}

/** Alice answers in the widget's Slack thread (the one whose parent is `parentTs`) on the sandbox's operator page. */
export async function replyOnOperatorPage(page: Page, server: TestServer, channel: string, parentTs: string, text: string): Promise<void> {
  await page.goto(`${server.url}/sandbox/slack/?team=${ACME}&user=${ALICE}&channel=${channel}`);
  await page.click(`.msg[data-ts="${parentTs}"] [data-act="open-thread"]`);
  await page.fill('#op-thread-text', text);
  await page.press('#op-thread-text', 'Enter');
  await page.waitForSelector(`#op-thread .msg >> text=${text}`);
}
