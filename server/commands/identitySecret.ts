/** A widget's identity secret (verified visitor identities, conversations/identity.ts): made anew on request. */
import { newIdentitySecret } from '../conversations/identity';
import type { Models } from '../models';
import type { ChatEndpointDocument } from '../models/ChatEndpoint';

/**
 * Replaces the widget's identity secret with a new one and answers it: the only time it leaves the server. Hashes
 * made with the old secret stop verifying at once (the relay's widget cache keeps a copy for at most a second).
 */
export async function regenerateIdentitySecret(models: Models, ce: ChatEndpointDocument): Promise<string> {
  const identitySecret = newIdentitySecret();
  await models.ChatEndpoint.updateOne({ _id: ce._id }, { $set: { identitySecret, identitySecretCreatedAt: new Date() } });
  return identitySecret;
}
