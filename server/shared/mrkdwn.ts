/**
 * Slack's escaping of message text (mrkdwn): &, < and > become entities so that what a visitor typed never turns
 * into a link, a mention or a control sequence. Slack documents exactly these three
 * (https://api.slack.com/reference/surfaces/formatting#escaping), so they are written out here rather than taken
 * from an HTML library, which would escape quotes Slack shows as typed.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const UNESCAPES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/** Text made safe to place in a Slack message or Block Kit mrkdwn field. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (c) => ESCAPES[c] ?? c);
}

/** Slack's escaping undone, in one pass (so `&amp;lt;` reads `&lt;`, as Slack shows it). */
export function unescapeMrkdwn(text: string): string {
  return text.replace(/&(?:amp|lt|gt);/g, (entity) => UNESCAPES[entity] ?? entity);
}
