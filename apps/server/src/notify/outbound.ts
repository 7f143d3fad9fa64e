/**
 * Outbound requests to SMS gateways and webhooks (AS-26, A-37): the target address is
 * resolved and checked before connecting, and the connection is pinned to the checked
 * address (no DNS rebinding); no redirects are followed; time and size are bounded.
 * Private, loopback and link-local targets are refused unless the operator allows them
 * (NOTIFY_ALLOW_PRIVATE_NETWORK, e.g. for an on-premises gateway).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
}

/** True for addresses an outbound call must not reach by default. */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) {
    const n = v4ToInt(ip);
    return V4_BLOCKED.some(([base, bits]) => (n >>> (32 - bits)) === (v4ToInt(base) >>> (32 - bits)));
  }
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPrivateAddress(mapped[1]!);
  if (lower === '::' || lower === '::1') return true;
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast
  return /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || lower.startsWith('ff');
}

export class OutboundRefused extends Error {}

/** dns.lookup that refuses private answers; used as the socket's lookup, so it pins. */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, cb: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (!allowPrivate && (bad || list.length === 0)) return cb(new OutboundRefused(`refused address for ${hostname}`));
      if (options.all) return cb(null, list);
      return cb(null, list[0]!.address, list[0]!.family);
    });
  }) as net.LookupFunction;
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface OutboundResponse {
  status: number;
  body: string;
}

export function outbound(req: OutboundRequest): Promise<OutboundResponse> {
  const url = new URL(req.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new OutboundRefused('scheme'));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && isPrivateAddress(host) && !req.allowPrivate) return Promise.reject(new OutboundRefused(`refused address ${host}`));
  const maxBytes = req.maxBytes ?? 64 * 1024;
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const r = mod.request(
      url,
      { method: req.method, headers: req.headers, lookup: guardedLookup(req.allowPrivate), timeout: req.timeoutMs ?? 5000 },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) return r.destroy(new Error('response too large'));
          chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Resolves a mail host and checks it like any outbound target; returns the address to use. */
export async function resolveChecked(host: string, allowPrivate: boolean): Promise<string> {
  const addresses = net.isIP(host) ? [{ address: host }] : await dns.promises.lookup(host, { all: true });
  if (addresses.length === 0) throw new OutboundRefused(`no address for ${host}`);
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) throw new OutboundRefused(`refused address for ${host}`);
  return addresses[0]!.address;
}
