/** Slack's channel name rules as the setup form applies them (spec section 5, with PRODUCT.md's 80). */

export const CHANNEL_NAME_MAX = 80;
/** Under the field while the name is fine: the same rule the error states, so the two never disagree. */
export const CHANNEL_NAME_RULE = 'Lowercase letters, numbers, hyphens and underscores, at most 80 characters. Spaces become hyphens.';
/** The spec's error wording, with the hyphen and underscore the rule allows named. */
export const CHANNEL_NAME_HINT =
  'Slack requires lowercase letters, numbers, hyphens or underscores: no spaces or other punctuation, at most 80 characters.';

/** What the field holds after a keystroke: lowercased, and spaces turned into hyphens, as Slack does. */
export function normaliseChannelInput(value: string): string {
  return value.toLowerCase().replace(/ /g, '-');
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
