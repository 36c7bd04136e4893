/**
 * Field rules of saved replies (settings-and-reports.md sections 3 and 5), shared by the API and the console:
 * label and response required; trigger phrases comma separated; the shortcut is typed as `reply {shortcut}`,
 * so it is one word.
 */
import { z } from 'zod';

export const SAVED_REPLY_LIMITS = { labelChars: 200, responseChars: 4000, triggerChars: 1000, shortcutChars: 50 } as const;

export const SavedReplyInputSchema = z.object({
  /** Present when an existing reply is updated. */
  id: z.string().max(64).optional(),
  Id: z.string().max(64).optional(),
  label: z
    .string({ error: 'label: Required.' })
    .trim()
    .min(1, 'label: Required.')
    .max(SAVED_REPLY_LIMITS.labelChars, `label: At most ${SAVED_REPLY_LIMITS.labelChars} characters.`),
  triggerPhrases: z
    .string()
    .trim()
    .max(SAVED_REPLY_LIMITS.triggerChars, `triggerPhrases: At most ${SAVED_REPLY_LIMITS.triggerChars} characters.`)
    .default(''),
  response: z
    .string({ error: 'response: Required.' })
    .trim()
    .min(1, 'response: Required.')
    .max(SAVED_REPLY_LIMITS.responseChars, `response: At most ${SAVED_REPLY_LIMITS.responseChars} characters.`),
  shortcut: z
    .string()
    .trim()
    .max(SAVED_REPLY_LIMITS.shortcutChars, `shortcut: At most ${SAVED_REPLY_LIMITS.shortcutChars} characters.`)
    .regex(/^[^\s]*$/, 'shortcut: One word, without spaces.')
    .default(''),
  autoSend: z.boolean({ error: 'autoSend: Must be true or false.' }).default(false),
  chatEndpointId: z.string().max(64).optional(),
});
export type SavedReplyInput = z.infer<typeof SavedReplyInputSchema>;

/** A saved reply as the API answers it: the response decoded (characters, not entities). */
export type SavedReplyView = {
  id: string;
  Id: string;
  label: string;
  triggerPhrases: string;
  response: string;
  shortcut: string;
  autoSend: boolean;
  chatEndpointId: string;
};

/** The trigger phrases of a reply: comma separated, trimmed, empty ones dropped, compared case-insensitively. */
export function triggerPhrasesOf(triggerPhrases: string): string[] {
  return triggerPhrases
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p.length > 0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A test of messages against the phrases: true when a message contains one of them as whole words (case-insensitive). */
export function triggerMatcher(triggerPhrases: string): (message: string) => boolean {
  const patterns = triggerPhrasesOf(triggerPhrases).map((phrase) => {
    const words = phrase.split(/\s+/).map(escapeRegExp).join('\\s+');
    // Unicode-aware word edges: "price" matches "the price?" but not "prices" or "pricey".
    return new RegExp(`(?<![\\p{L}\\p{N}_])${words}(?![\\p{L}\\p{N}_])`, 'u');
  });
  return (message) => {
    const text = message.toLowerCase();
    return patterns.some((pattern) => pattern.test(text));
  };
}

/** True when `message` contains one of the phrases as whole words (case-insensitive). */
export function matchesTriggerPhrases(triggerPhrases: string, message: string): boolean {
  return triggerMatcher(triggerPhrases)(message);
}
