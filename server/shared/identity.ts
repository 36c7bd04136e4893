/**
 * Verified visitor identity, the site's side (docs/widget-api.md): the server-side code that signs a signed-in user's
 * id with the widget's identity secret, one snippet per language, and the browser call that passes the signature
 * on. Every snippet computes the same thing, the hex HMAC-SHA256 of the user id (UTF-8) keyed with the secret as
 * text, and reads the secret from the environment variable PARLEY_IDENTITY_SECRET so it never sits in code.
 * Pure text: the console shows them, the tests run them.
 */

export const IDENTITY_LANGUAGES = ['node', 'python', 'ruby', 'php', 'go'] as const;
export type IdentityLanguage = (typeof IDENTITY_LANGUAGES)[number];

/** The environment variable the snippets read the secret from. */
export const IDENTITY_SECRET_ENV = 'PARLEY_IDENTITY_SECRET';

export const IDENTITY_LANGUAGE_LABELS: Record<IdentityLanguage, string> = {
  node: 'Node.js',
  python: 'Python',
  ruby: 'Ruby',
  php: 'PHP',
  go: 'Go',
};

const SNIPPETS: Record<IdentityLanguage, string> = {
  node: `const crypto = require('node:crypto');

// On your server, for the signed-in user:
function parleyUserHash(userId) {
  return crypto.createHmac('sha256', process.env.${IDENTITY_SECRET_ENV}).update(String(userId)).digest('hex');
}`,
  python: `import hashlib
import hmac
import os

# On your server, for the signed-in user:
def parley_user_hash(user_id):
    secret = os.environ["${IDENTITY_SECRET_ENV}"].encode()
    return hmac.new(secret, str(user_id).encode(), hashlib.sha256).hexdigest()`,
  ruby: `require "openssl"

# On your server, for the signed-in user:
def parley_user_hash(user_id)
  OpenSSL::HMAC.hexdigest("SHA256", ENV.fetch("${IDENTITY_SECRET_ENV}"), user_id.to_s)
end`,
  php: `<?php
// On your server, for the signed-in user:
function parley_user_hash($userId) {
    return hash_hmac('sha256', (string) $userId, getenv('${IDENTITY_SECRET_ENV}'));
}`,
  go: `import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"os"
)

// On your server, for the signed-in user:
func parleyUserHash(userID string) string {
	mac := hmac.New(sha256.New, []byte(os.Getenv("${IDENTITY_SECRET_ENV}")))
	mac.Write([]byte(userID))
	return hex.EncodeToString(mac.Sum(nil))
}`,
};

/** The server-side code of `language` that computes a user's userHash. */
export function identityServerSnippet(language: IdentityLanguage): string {
  return SNIPPETS[language];
}

/** What the page then calls, with the user's id and the hash the server computed. */
export const IDENTIFY_BROWSER_SNIPPET = `<script>
  parley.identify('USER_ID', {
    name: 'USER_NAME',
    email: 'USER_EMAIL',
    userHash: 'USER_HASH', // computed by your server, as above
  });
</script>`;
