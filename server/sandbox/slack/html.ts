// Shared HTML helpers for the sandbox's pages (consent page and operator page). Text goes into them through
// Parley's one HTML escaper.

import { escapeHtml } from '../../escapeHtml';
import { htmlPage, svgIcon } from '../page';

export { escapeHtml };

export const baseCss = `
:root { --aubergine: #3f0e40; --aubergine-2: #350d36; --accent: #1164a3; --green: #007a5a; --border: #dddddd; --muted: #616061; --bg: #ffffff; --soft: #f8f8f8; --danger: #e01e5a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1d1c1d; background: var(--soft); }
button { font: inherit; cursor: pointer; border: 1px solid var(--border); background: #fff; border-radius: 6px; padding: 4px 12px; }
button.primary, button[type=submit]:not(.secondary) { background: var(--green); color: #fff; border-color: var(--green); font-weight: 600; }
button.danger { color: var(--danger); border-color: var(--danger); }
button:disabled { opacity: .5; cursor: default; }
input, select, textarea { font: inherit; border: 1px solid #bbb; border-radius: 6px; padding: 6px 8px; }
code { background: #f3f3f3; border-radius: 3px; padding: 0 4px; font-size: 90%; }
.muted { color: var(--muted); font-size: 13px; }
.card { max-width: 560px; margin: 48px auto; background: #fff; border: 1px solid var(--border); border-radius: 10px; padding: 28px 32px; box-shadow: 0 1px 3px rgba(0,0,0,.06); }
.card h1 { font-size: 22px; margin-top: 0; }
.card h2 { font-size: 15px; margin: 18px 0 6px; }
.card label { display: block; margin: 12px 0; font-weight: 600; }
.card select { display: block; width: 100%; margin-top: 4px; font-weight: 400; }
.card .buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 20px; }
.app-badge { display: inline-flex; align-items: center; justify-content: center; width: 32px; height: 32px; border-radius: 8px; background: #611f69; color: #fff; font-size: 18px; vertical-align: middle; }
`;

/** The sandbox's tab icon: a Slack-like hash on aubergine. */
const ICON = svgIcon(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#611f69"/>' +
    '<path d="M12 7 10 25M22 7l-2 18M7 12.5h19M6 19.5h19" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>',
);

export function pageShell(title: string, body: string, extraCss = ''): string {
  return htmlPage({ title, icon: ICON, css: baseCss + extraCss, body });
}
