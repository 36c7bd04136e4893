/**
 * Slack's emoji shortcodes (`:truck:`, `:+1:`, `:robot_face:`) as characters, from iamcal's emoji-data (the
 * emoji-datasource package): the table Slack itself uses. Used where Slack text is shown outside Slack: the
 * visitor widget (relay) and the Slack sandbox's pages.
 */
import emojiData from 'emoji-datasource/emoji.json';

/** Shortcode → emoji character, built once (about 1,900 emoji under 2,300 names). */
const EMOJI = new Map<string, string>(
  (emojiData as { unified: string; short_names: string[] }[]).flatMap((e) => {
    const char = String.fromCodePoint(...e.unified.split('-').map((hex) => parseInt(hex, 16)));
    return e.short_names.map((name): [string, string] => [name, char]);
  }),
);

/** A shortcode, with Slack's optional skin tone after it. */
export const SHORTCODE = /:([a-z0-9_+'-]+):(?::skin-tone-[2-6]:)?/gi;

export function emojiFor(name: string): string | undefined {
  return EMOJI.get(name.toLowerCase());
}

/** Every known shortcode replaced by what `render` makes of it; unknown names (custom emoji) stay as typed. */
export function replaceShortcodes(text: string, render: (char: string, name: string) => string = (char) => char): string {
  return text.replace(SHORTCODE, (whole, name: string) => {
    const char = emojiFor(name);
    return char ? render(char, name) : whole;
  });
}
