/**
 * POSTs to URLs that account owners typed in (webhooks, REST hooks). Unless the deployment allows private
 * targets, a URL whose host is, or resolves to, a loopback, private, link-local (cloud metadata services),
 * carrier-grade NAT or otherwise special-purpose address is refused, so a webhook cannot be aimed at Parley's own
 * network. The address is checked where the connection is made (the socket's DNS lookup), so a name that
 * resolves differently on a second lookup cannot slip past the check.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { AppError } from '../errors';
import { ERROR_CODES } from '../shared/constants';

/** IANA special-purpose ranges (RFC 6890 and successors) a webhook must not reach. */
const NOT_PUBLIC = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  if (family === 6 && mapped) {
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1 or ::ffff:a00:1) is judged as the IPv4 address it is.
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(mapped);
    const v4 = hex ? [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)].flatMap((n) => [n >> 8, n & 255]).join('.') : mapped;
    return net.isIPv4(v4) && !NOT_PUBLIC.check(v4, 'ipv4');
  }
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A target no retry can reach: not an http(s) URL, or a private or reserved address. */
export class UnusableTargetError extends AppError {
  constructor(message: string) {
    super(message, { status: 400, code: ERROR_CODES.unusableTarget });
  }
}

const privateTarget = (host: string, address: string) =>
  new UnusableTargetError(`${host} is a private or reserved address (${address}); webhooks go to public addresses only`);

/** dns.lookup that refuses what is not public: the socket connects only to an address that passed. */
const publicLookup: typeof dns.lookup = ((hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused || list.length === 0) return callback(privateTarget(hostname, refused?.address ?? 'none'), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
}) as typeof dns.lookup;
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string, family: number) => void;

/**
 * One POST; answers the status (the body is read and dropped). Redirects are not followed. `allowPrivate`: the
 * deployment lets webhooks reach private addresses (an intranet's own services).
 */
export function postToUrl(
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean },
): Promise<number> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new UnusableTargetError('not a URL'));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new UnusableTargetError('not an http(s) URL'));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!init.allowPrivate && net.isIP(host) && !isPublicAddress(host)) return Promise.reject(privateTarget(host, host));
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        signal: AbortSignal.timeout(init.timeoutMs),
        ...(init.allowPrivate ? {} : { lookup: publicLookup }),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
