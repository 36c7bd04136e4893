/**
 * Parley's Zapier app (Zapier Platform CLI, zapier-platform-core): five REST-hook triggers on Parley's conversation
 * events and a conversation search, on the public API (/v1/api) with the account's Zapier API key.
 */
import { version as platformVersion } from 'zapier-platform-core';
import { addApiKey, explainErrors } from './api';
import { authentication } from './authentication';
import { findConversation } from './searches/findConversation';
import { conversationEnded, conversationRated, newConversation } from './triggers/conversations';
import { newOfflineMessage } from './triggers/offlineMessage';
import { newVisitorMessage } from './triggers/visitorMessage';

// The app's version is package.json's, which `zapier push` reads.
const { version } = require('../package.json') as { version: string };

const triggers = [newConversation, newVisitorMessage, conversationEnded, conversationRated, newOfflineMessage];

const app = {
  version,
  platformVersion,
  // Every call goes through z.request, which Zapier logs already: its global patch of node's http (for libraries
  // that bypass z.request) is not needed, and would stay on in a process that also runs Parley (the tests).
  flags: { skipHttpPatch: true },
  authentication,
  beforeRequest: [addApiKey],
  afterResponse: [explainErrors],
  triggers: Object.fromEntries(triggers.map((t) => [t.key, t])),
  searches: { [findConversation.key]: findConversation },
};

export default app;
