/**
 * The visitor's address and country. X-Forwarded-For is believed only as far as TRUST_PROXY says (as Express
 * does for req.ip), so nobody can dodge per-IP limits or country lists by sending the header themselves.
 * Countries come from geoip-country: MaxMind GeoLite2 country data shipped inside the npm package, so lookups
 * need no network and no download at install time.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { ChatEndpoint } from '../models/ChatEndpoint';

// geoip-country ships no type declarations; this is the one function Parley uses.
const geoip = require('geoip-country') as { lookup(ip: string): { country?: string } | null };

const stripV6Prefix = (ip: string) => (ip.startsWith('::ffff:') ? ip.slice(7) : ip);

export function clientIp(req: IncomingMessage, trustProxy: boolean | number | string): string {
  const remote = stripV6Prefix(req.socket.remoteAddress ?? '');
  if (trustProxy === false) return remote;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => stripV6Prefix(h.trim()))
    .filter((h) => isIP(h) !== 0);
  if (hops.length === 0) return remote;
  if (trustProxy === true) return hops[0];
  if (typeof trustProxy === 'number') return hops[Math.max(0, hops.length - trustProxy)] ?? remote;
  // A list of trusted proxies: believe the header only when the direct peer is one of them.
  const trusted = trustProxy.split(/[\s,]+/).filter(Boolean);
  const loopback = remote === '127.0.0.1' || remote === '::1';
  return trusted.includes(remote) || (loopback && trusted.includes('loopback')) ? hops[hops.length - 1] : remote;
}

/** ISO 3166 two-letter country of an address, '' when unknown (private or loopback addresses). */
export function countryOf(ip: string): string {
  if (!ip || isIP(ip) === 0) return '';
  try {
    return geoip.lookup(ip)?.country ?? '';
  } catch {
    return '';
  }
}

const codes = (list: string) =>
  list
    .split(/[\s,]+/)
    .map((c) => c.trim().toUpperCase())
    .filter((c) => /^[A-Z]{2}$/.test(c));

/**
 * Whether the widget may serve a visitor from `country`. The lists need collectVisitorMetaData (the spec ties
 * them to it); the deny list wins over the allow list; a visitor whose country is unknown is served.
 */
export function countryAllowed(
  ce: Pick<ChatEndpoint, 'collectVisitorMetaData' | 'countryAllowList' | 'countryDenyList'>,
  country: string,
): boolean {
  if (!ce.collectVisitorMetaData || !country) return true;
  if (codes(ce.countryDenyList).includes(country)) return false;
  const allow = codes(ce.countryAllowList);
  return allow.length === 0 || allow.includes(country);
}
