/**
 * Record framing shared by journal segments and snapshots: [u32 LE payload length][u32 LE CRC-32 of payload][payload].
 * A zero header marks the end of the data (segments are preallocated with zeros).
 */
import { crc32 } from 'node:zlib';

export const FRAME_HEADER_BYTES = 8;

/** The complete frame (header and payload) for payload parts written back to back. */
export function encodeFrame(parts: Buffer[]): Buffer {
  let length = 0;
  let crc = 0;
  for (const part of parts) {
    length += part.length;
    crc = crc32(part, crc);
  }
  const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
  header.writeUInt32LE(length, 0);
  header.writeUInt32LE(crc, 4);
  return Buffer.concat([header, ...parts], FRAME_HEADER_BYTES + length);
}

export type FrameRead = { kind: 'frame'; payload: Buffer; next: number } | { kind: 'end' } | { kind: 'bad'; reason: string };

function allZero(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buf[i] !== 0) return false;
  return true;
}

/** Reads the frame starting at `pos`, telling a clean end (EOF or zero fill) from a damaged frame. */
export function readFrame(buf: Buffer, pos: number): FrameRead {
  if (pos >= buf.length) return { kind: 'end' };
  if (pos + FRAME_HEADER_BYTES > buf.length) {
    return allZero(buf, pos, buf.length) ? { kind: 'end' } : { kind: 'bad', reason: 'truncated frame header' };
  }
  const length = buf.readUInt32LE(pos);
  const crc = buf.readUInt32LE(pos + 4);
  if (length === 0) return crc === 0 ? { kind: 'end' } : { kind: 'bad', reason: 'empty frame with a checksum' };
  const start = pos + FRAME_HEADER_BYTES;
  if (start + length > buf.length) return { kind: 'bad', reason: `frame of ${length} bytes runs past the end of the file` };
  const payload = buf.subarray(start, start + length);
  if (crc32(payload) !== crc) return { kind: 'bad', reason: 'checksum mismatch' };
  return { kind: 'frame', payload, next: start + length };
}
