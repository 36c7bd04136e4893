/**
 * A REST-hook trigger: Zapier subscribes its target URL to one of Parley's events (POST /v1/api/hooks) when a Zap
 * is turned on and unsubscribes it (DELETE /v1/api/hooks/{id}) when it is turned off; each call Parley makes to the
 * URL becomes one item. `performList` gives the Zap editor recent real items from the API, in the same shape.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { apiUrl } from './api';

export type Item = { id: string } & Record<string, unknown>;

export type HookTriggerSpec = {
  key: string;
  noun: string;
  label: string;
  description: string;
  /** Parley's event name (POST /v1/api/hooks `event`). */
  event: string;
  /** The item of one call's JSON body (may read the API for the fields the payload lacks). */
  fromPayload(z: ZObject, bundle: Bundle, payload: Record<string, unknown>): Item | Promise<Item>;
  /** Recent items from the API, newest first. */
  list(z: ZObject, bundle: Bundle): Promise<Item[]>;
  sample: Item;
  outputFields: { key: string; label: string; type?: 'string' | 'integer' | 'datetime' | 'boolean' }[];
};

export function hookTrigger(spec: HookTriggerSpec) {
  return {
    key: spec.key,
    noun: spec.noun,
    display: { label: spec.label, description: spec.description },
    operation: {
      type: 'hook' as const,
      performSubscribe: async (z: ZObject, bundle: Bundle) => {
        const response = await z.request({
          url: apiUrl(bundle, '/hooks'),
          method: 'POST',
          body: { event: spec.event, targetUrl: bundle.targetUrl },
        });
        // Kept by Zapier as bundle.subscribeData: the id to unsubscribe, and the secret that signs each call.
        return response.data as { id: string; secret: string };
      },
      performUnsubscribe: async (z: ZObject, bundle: Bundle) => {
        const id = String((bundle.subscribeData as { id?: unknown } | undefined)?.id ?? '');
        const response = await z.request({
          url: apiUrl(bundle, `/hooks/${encodeURIComponent(id)}`),
          method: 'DELETE',
          skipThrowForStatus: true,
        });
        // 404: already gone (unsubscribed, or its key regenerated), which is what was asked.
        if (response.status !== 204 && response.status !== 404)
          throw new z.errors.Error(`Parley answered ${response.status}`, 'ParleyError', response.status);
        return { status: response.status };
      },
      perform: async (z: ZObject, bundle: Bundle) => [
        await spec.fromPayload(z, bundle, (bundle.cleanedRequest ?? {}) as Record<string, unknown>),
      ],
      performList: (z: ZObject, bundle: Bundle) => spec.list(z, bundle),
      sample: spec.sample,
      outputFields: spec.outputFields,
    },
  };
}
