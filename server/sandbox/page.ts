/**
 * The frame of a sandbox's HTML pages (the Slack sandbox's consent and operator pages, the Stripe sandbox's hosted
 * pages): the title through Parley's one HTML escaper, an inline tab icon (without one every page load asks the host
 * for a /favicon.ico it does not have), the styles and the body, written by the caller.
 */
import { escapeHtml } from '../escapeHtml';

/** A tab icon from its SVG, as a data: URL. */
export function svgIcon(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export function htmlPage(page: { title: string; icon: string; css: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<link rel="icon" href="${page.icon}" type="image/svg+xml">
<style>${page.css}</style>
</head>
<body>
${page.body}
</body>
</html>`;
}
