/**
 * The fetch openid-client uses for every call to an upstream provider (discovery, JWKS,
 * token; A-37): the checks of notify/outbound.ts — every address a name resolves to is
 * checked and the socket connects to exactly the checked one, the connected peer is checked
 * again, IP literals are checked before anything — answered as a WHATWG Response because
 * openid-client reads headers (content-type, WWW-Authenticate). No redirect is followed
 * (openid-client asks for `redirect: 'manual'` and treats a 3xx as a failure); time and size
 * are bounded. Private targets only when the operator allows them.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { guardPeer, isPrivateAddress, OutboundRefused, resolveChecked, type Resolver } from '../../notify/outbound.js';
import { UPSTREAM_DEFAULTS } from './defaults.js';

export interface GuardedFetchOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
}

type FetchInit = { method?: string; headers?: Record<string, string> | Headers | [string, string][]; body?: unknown; signal?: AbortSignal | null };

const NULL_BODY = new Set([101, 204, 205, 304]);

function headersOf(h: FetchInit['headers']): Record<string, string> {
  return Object.fromEntries(new Headers(h as ConstructorParameters<typeof Headers>[0]).entries());
}

function bodyOf(b: unknown): string | undefined {
  if (b === undefined || b === null) return undefined;
  if (typeof b === 'string') return b;
  if (b instanceof URLSearchParams) return b.toString();
  throw new OutboundRefused('unsupported request body');
}

export function createGuardedFetch(o: GuardedFetchOptions) {
  const lookup = ((hostname: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    resolveChecked(hostname, o.allowPrivate, o.resolve).then(
      (address) => (opts.all ? cb(null, [{ address, family: net.isIP(address) }]) : cb(null, address, net.isIP(address))),
      (err: unknown) => cb(err),
    );
  }) as unknown as net.LookupFunction;

  return function guardedFetch(input: string | URL, init: FetchInit = {}): Promise<Response> {
    let url: URL;
    try {
      url = new URL(String(input));
    } catch {
      return Promise.reject(new OutboundRefused('invalid url'));
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new OutboundRefused('scheme'));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !o.allowPrivate && isPrivateAddress(host)) return Promise.reject(new OutboundRefused(`refused address ${host}`));
    const maxBytes = o.maxBytes ?? UPSTREAM_DEFAULTS.maxResponseBytes;
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const r = mod.request(
        url,
        {
          method: init.method ?? 'GET',
          headers: headersOf(init.headers),
          lookup,
          // a fresh connection each time: a pooled socket would skip both checks
          agent: false,
          timeout: o.timeoutMs ?? UPSTREAM_DEFAULTS.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBytes) return r.destroy(new OutboundRefused('response too large'));
            chunks.push(c);
          });
          res.on('end', () => {
            const status = res.statusCode ?? 502;
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
            resolve(new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers }));
          });
          res.on('error', reject);
        },
      );
      init.signal?.addEventListener('abort', () => r.destroy(new Error('aborted')), { once: true });
      r.on('socket', (socket) => guardPeer(socket, o.allowPrivate, (err) => r.destroy(err)));
      r.on('timeout', () => r.destroy(new Error('timeout')));
      r.on('error', reject);
      r.end(bodyOf(init.body));
    });
  };
}
