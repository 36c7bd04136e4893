/**
 * Child process of scripts/bench/relay.ts: opens `count` idle visitor sockets to Parley (in batches), says hello
 * with the given visitor tokens, pings every 10 s like a widget, reports how many were welcomed, and keeps them
 * open until it is killed. Kept out of the server's process so Parley's memory is measured alone.
 */
import WebSocket from 'ws';

const [wsUrl, widgetId, countText, tokensJson] = process.argv.slice(2);
const count = Number(countText);
const tokens = JSON.parse(tokensJson ?? '[]') as string[];
const page = { url: 'https://bench.example.com/', title: 'Bench', referrer: '' };
const sockets: WebSocket[] = [];
let welcomed = 0;

function open(i: number): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl, { headers: { origin: 'http://bench.example.com' }, perMessageDeflate: false });
    sockets.push(ws);
    ws.on('message', (data) => {
      if (String(data).startsWith('{"t":"welcome"')) welcomed += 1;
    });
    ws.once('open', () => {
      ws.send(JSON.stringify({ t: 'hello', widgetId, visitorToken: tokens[i % tokens.length], lastSeq: 0, page }));
      resolve();
    });
    ws.once('error', () => resolve());
  });
}

async function main(): Promise<void> {
  setInterval(() => {
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send('{"t":"ping"}');
  }, 10_000);
  for (let i = 0; i < count; i += 200) await Promise.all(Array.from({ length: Math.min(200, count - i) }, (_, j) => open(i + j)));
  const until = Date.now() + 120_000;
  while (welcomed < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  process.send?.({ welcomed });
}

void main();
