/**
 * The demo site: a second HTTP listener (another port, so another origin) serving a plain sample shop page
 * that embeds the html snippet of a configured widget, exactly as a customer would paste it. It lets a person
 * (and the browser tests) try the widget across origins without a site of their own.
 *   GET /                      the first widget that finished setup (Step 3), oldest first
 *   GET /?widget=<uuid>        that widget (any Step-3 widget), &style=standard|sidebar|inline
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { escapeHtml } from '../escapeHtml';
import type { Models } from '../models';
import { embedSnippet, isWidgetStyle, type WidgetStyle } from '../shared/embed';

export type DemoServer = { url: string; server: Server; close(): Promise<void> };

export type DemoOptions = {
  models: Models;
  /** Where Parley is reached (its public URL): the snippet loads /widget.js from there. */
  parleyUrl: string;
  port: number;
  host?: string;
};

const UUID = /^[A-Za-z0-9-]{1,64}$/;

export function demoApp(models: Models, parleyUrl: string): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/', async (req, res, next) => {
    try {
      const wanted = typeof req.query.widget === 'string' && UUID.test(req.query.widget) ? req.query.widget : undefined;
      const style: WidgetStyle = isWidgetStyle(req.query.style) ? req.query.style : 'standard';
      const widget = await models.ChatEndpoint.findOne(wanted ? { Uuid: wanted, Step: 3 } : { Step: 3 })
        .sort({ createdAt: 1, _id: 1 })
        .select({ Uuid: 1, RoomName: 1 })
        .lean();
      const snippet = widget ? embedSnippet({ projectType: 'html', style, widgetUuid: widget.Uuid, origin: parleyUrl }) : undefined;
      res
        .set('Cache-Control', 'no-store')
        .type('html')
        .send(page(snippet, style, parleyUrl, widget ? widget.RoomName : undefined));
    } catch (error) {
      next(error);
    }
  });
  app.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not found');
  });
  return app;
}

export async function startDemoServer(options: DemoOptions): Promise<DemoServer> {
  const server = createServer(demoApp(options.models, options.parleyUrl));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : new URL(options.parleyUrl).hostname;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const PRODUCTS = [
  { name: 'Ethiopia Guji', notes: 'Peach, jasmine, black tea', price: '$18', colour: '#f4d7b5' },
  { name: 'Colombia Huila', notes: 'Red apple, caramel, cocoa', price: '$16', colour: '#e7c2a0' },
  { name: 'House Espresso', notes: 'Dark chocolate, hazelnut', price: '$15', colour: '#c99b7a' },
];

function page(snippet: string | undefined, style: WidgetStyle, parleyUrl: string, room: string | undefined): string {
  const products = PRODUCTS.map(
    (p) =>
      `<article class="card"><div class="bag" style="background:${p.colour}"></div><h3>${p.name}</h3><p>${p.notes}</p><div class="buy"><b>${p.price}</b><button type="button">Add to cart</button></div></article>`,
  ).join('');
  const setup = `<section class="notice"><h2>No widget to show yet</h2><p>Finish setting up a widget in <a href="${escapeHtml(parleyUrl)}/app/">Parley</a> (sign up, add it to Slack, pick a channel), then reload this page: it embeds the chat of your first configured widget.</p></section>`;
  const inlineBox =
    style === 'inline'
      ? `<section class="inline-demo"><h2>Talk to a roaster</h2><p>The inline widget lives in this box.</p></section>`
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northwind Coffee Roasters</title>
<style>
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 Georgia,"Times New Roman",serif;color:#2b211c;background:#fbf7f2}
header{display:flex;align-items:center;justify-content:space-between;padding:18px 6vw;border-bottom:1px solid #eadfd3;background:#fff}
header b{font-size:22px;letter-spacing:.5px}
nav a{margin-left:22px;color:#6b4f3f;text-decoration:none;font-family:system-ui,sans-serif;font-size:15px}
.hero{padding:72px 6vw 56px;background:linear-gradient(120deg,#3b2a20,#6b4631);color:#fdf6ee}
.hero h1{font-size:clamp(32px,5vw,52px);margin:0 0 12px;line-height:1.1}
.hero p{max-width:560px;font-size:18px;opacity:.9}
.hero a{display:inline-block;margin-top:14px;padding:12px 22px;border-radius:999px;background:#f2b46d;color:#3b2a20;text-decoration:none;font-family:system-ui,sans-serif;font-weight:700}
main{padding:48px 6vw}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:24px}
.card{background:#fff;border:1px solid #eadfd3;border-radius:14px;padding:18px}
.bag{height:140px;border-radius:10px;margin-bottom:12px}
.card h3{margin:0}.card p{margin:4px 0 12px;color:#7a6253;font-size:15px}
.buy{display:flex;justify-content:space-between;align-items:center}
.buy button{font:600 14px system-ui,sans-serif;padding:8px 14px;border-radius:8px;border:1px solid #3b2a20;background:#fff;cursor:pointer}
.notice{margin:0 0 32px;padding:18px 22px;border-radius:12px;background:#fff4d6;border:1px solid #f0d58a;font-family:system-ui,sans-serif}
.inline-demo{margin-top:40px}
#parley-inline{max-width:100%}
footer{padding:32px 6vw 120px;color:#735c4e;font-size:14px;border-top:1px solid #eadfd3}
/* A host page's careless global styles: the widget's shadow root must keep its own look. */
button{text-transform:uppercase}
div{line-height:1.9}
</style>
</head>
<body>
<header><b>Northwind Coffee</b><nav><a href="#shop">Shop</a><a href="#subscriptions">Subscriptions</a><a href="#about">About</a></nav></header>
<section class="hero"><h1>Small-batch coffee, roasted on Tuesdays.</h1><p>Single origins and blends shipped within 48 hours of roasting. Questions about grind size or brewing? Our roasters answer in the chat.</p><a href="#shop">Shop the beans</a></section>
<main id="shop">
${snippet ? '' : setup}<h2>This week's roasts</h2>
<div class="grid">${products}</div>
${snippet && style === 'inline' ? `${inlineBox}\n${snippet}` : ''}
</main>
<footer>Demo site served by Parley on another origin${room ? ` · chat linked to #${escapeHtml(room)}` : ''}. The embed snippet is pasted as is.</footer>
${snippet && style !== 'inline' ? snippet : ''}
</body>
</html>
`;
}
