/**
 * GET /avatars/visitor/<id>.png: a visitor's avatar for Slack's `icon_url` (Slack shows it beside the visitor's
 * posts in the thread). Visitors upload no picture, so each gets an identicon: a symmetric 5×5 pattern in a
 * colour, both derived from the id, the same every time. PNG, because Slack takes no SVG as an icon.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { Router } from 'express';
import { VISITOR_AVATAR_PATH } from '../shared/avatars';

const SIZE = 72;
const CELLS = 5;
const MARGIN = 6;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The identicon of `seed` as PNG bytes. */
export function identiconPng(seed: string): Buffer {
  const hash = createHash('sha256').update(seed).digest();
  const hue = ((hash[0] ?? 0) * 360) / 256;
  const [r, g, b] = hslToRgb(hue, 0.55, 0.5);
  const on = (x: number, y: number) => ((hash[1 + y * 3 + Math.min(x, CELLS - 1 - x)] ?? 0) & 1) === 1;
  const cell = (SIZE - 2 * MARGIN) / CELLS;
  const rows: Buffer[] = [];
  for (let y = 0; y < SIZE; y += 1) {
    const row = Buffer.alloc(1 + SIZE * 3, 0xf2);
    row[0] = 0;
    for (let x = 0; x < SIZE; x += 1) {
      const cx = Math.floor((x - MARGIN) / cell);
      const cy = Math.floor((y - MARGIN) / cell);
      if (cx >= 0 && cy >= 0 && cx < CELLS && cy < CELLS && on(cx, cy)) row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

export function visitorAvatarRouter(): Router {
  const router = Router();
  router.get(`${VISITOR_AVATAR_PATH}/:file`, (req, res) => {
    const match = /^([A-Za-z0-9_-]{1,64})\.png$/.exec(String(req.params.file));
    if (!match?.[1]) {
      res.status(404).end();
      return;
    }
    res.set({
      'Content-Type': 'image/png',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    res.send(identiconPng(match[1]));
  });
  return router;
}
