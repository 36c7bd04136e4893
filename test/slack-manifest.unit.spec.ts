import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { fillManifest, PLACEHOLDER_HOST } from '../scripts/manifest';
import { INSTALL_BOT_SCOPES, INSTALL_USER_SCOPES } from '../server/shared/slack-scopes';
import { registeredListeners } from '../server/slack';

type Manifest = {
  features?: {
    slash_commands?: { command: string; url: string }[];
    shortcuts?: { callback_id: string; type: string }[];
  };
  oauth_config?: { redirect_urls?: string[]; scopes?: { bot?: string[]; user?: string[] } };
  settings?: {
    event_subscriptions?: { request_url?: string; bot_events?: string[] };
    interactivity?: { is_enabled?: boolean; request_url?: string };
  };
};

/** Events API subscriptions name message events by channel type; Bolt listens to them as `message`. */
const listenerName = (subscription: string) => (subscription.startsWith('message.') ? 'message' : subscription);

describe('slack-manifest.yml', () => {
  const source = readFileSync(path.join(__dirname, '..', 'slack-manifest.yml'), 'utf8');
  const manifest = parse(source) as Manifest;
  const registered = registeredListeners();

  it('declares exactly the slash commands the code registers', () => {
    const declared = (manifest.features?.slash_commands ?? []).map((c) => c.command);
    expect([...declared].sort()).to.deep.equal([...registered.commands].sort());
    expect(declared).to.include('/parley');
  });

  it('subscribes to exactly the events the code listens to', () => {
    const declared = new Set((manifest.settings?.event_subscriptions?.bot_events ?? []).map(listenerName));
    expect([...declared].sort()).to.deep.equal([...new Set(registered.events)].sort());
  });

  it('declares exactly the shortcuts the code registers', () => {
    const declared = (manifest.features?.shortcuts ?? []).map((s) => s.callback_id);
    expect([...declared].sort()).to.deep.equal([...registered.shortcuts].sort());
  });

  it('asks for the scopes Parley requests at install, no more and no fewer', () => {
    expect([...(manifest.oauth_config?.scopes?.bot ?? [])].sort()).to.deep.equal([...INSTALL_BOT_SCOPES].sort());
    expect([...(manifest.oauth_config?.scopes?.user ?? [])].sort()).to.deep.equal([...INSTALL_USER_SCOPES].sort());
  });

  it('sends events, commands and interactivity to /slack/events and OAuth back to /slack/oauth_redirect', () => {
    const events = `${PLACEHOLDER_HOST}/slack/events`;
    expect(manifest.settings?.event_subscriptions?.request_url).to.equal(events);
    expect(manifest.settings?.interactivity).to.deep.equal({ is_enabled: true, request_url: events });
    for (const command of manifest.features?.slash_commands ?? []) expect(command.url).to.equal(events);
    expect(manifest.oauth_config?.redirect_urls).to.deep.equal([`${PLACEHOLDER_HOST}/slack/oauth_redirect`]);
  });

  it('becomes a manifest for a real host with npm run manifest', () => {
    const filled = parse(fillManifest(source, 'https://chat.acme.io')) as Manifest;
    expect(filled.settings?.event_subscriptions?.request_url).to.equal('https://chat.acme.io/slack/events');
    expect(filled.oauth_config?.redirect_urls).to.deep.equal(['https://chat.acme.io/slack/oauth_redirect']);
  });
});
