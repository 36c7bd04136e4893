/** Slack's channel name rules as the setup form applies them (spec section 5, with PRODUCT.md's 80). */

export const CHANNEL_NAME_MAX = 80;
export const CHANNEL_NAME_HINT = 'Slack requires lowercase letters, no spaces or punctuation, at most 80 characters.';

/** What the field holds after a keystroke: Slack names are lowercase, so typing is lowercased at once. */
export function normaliseChannelInput(value: string): string {
  return value.toLowerCase();
}

/** A name the create button accepts: 1 to 80 of a-z, 0-9, underscore and hyphen. */
export function isValidChannelName(name: string): boolean {
  return name.length >= 1 && name.length <= CHANNEL_NAME_MAX && /^[a-z0-9_-]+$/.test(name);
}

/** Rooms the list never offers. */
export const HIDDEN_ROOMS: readonly string[] = ['random', 'general'];

export function isHiddenRoom(name: string): boolean {
  return HIDDEN_ROOMS.includes(name.replace(/^#/, '').toLowerCase());
}
