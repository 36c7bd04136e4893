/**
 * The connection: the address of the Parley to use (Parley is self-hosted too) and the account's Zapier API key
 * (`zk_…`, Account page). Tested with GET /v1/api/me, which also names the connection after the organisation.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { getJson } from './api';

type Me = { accountId: string; orgName: string; key: string; widgets: { widgetId: string; channel: string }[] };

export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: 'baseUrl',
      label: 'Parley address',
      required: true,
      type: 'string' as const,
      helpText: 'Where your team opens Parley, e.g. `https://chat.example.com`.',
    },
    {
      key: 'apiKey',
      label: 'Zapier API key',
      required: true,
      type: 'password' as const,
      helpText: 'On the **Account** page of the Parley console, under API keys: **Generate** the Zapier API key and paste it here.',
    },
  ],
  test: (z: ZObject, bundle: Bundle) => getJson<Me>(z, bundle, '/me'),
  connectionLabel: (_z: ZObject, bundle: Bundle) => String((bundle.inputData as Partial<Me>).orgName || 'Parley'),
};
