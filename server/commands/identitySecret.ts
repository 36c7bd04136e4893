/** A widget's identity secret (verified visitor identities, conversations/identity.ts): made anew on request. */
import { newIdentitySecret } from '../conversations/identity';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';

export type IdentitySecretDeps = {
  models: Models;
  /** Every process drops its cached copy of the widget, so hashes of the old secret stop verifying at once. */
  pubsub: { signal(signal: { kind: 'widget'; ceId: string }): void };
  widgets: { invalidate(ceId: string): void };
};

/** Replaces the widget's identity secret with a new one and answers it: the only time it leaves the server. */
export async function regenerateIdentitySecret(deps: IdentitySecretDeps, ce: ChatEndpointDocument): Promise<string> {
  const identitySecret = newIdentitySecret();
  await deps.models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { identitySecret, identitySecretCreatedAt: new Date() } });
  deps.widgets.invalidate(ce._id.toHexString());
  deps.pubsub.signal({ kind: 'widget', ceId: ce._id.toHexString() });
  return identitySecret;
}
