/**
 * Outbound requests to SMS gateways and webhooks (AS-26, A-37). The target is resolved
 * once, every answer is checked (ip-ranges.ts) and the socket connects to exactly those
 * checked answers, because the check runs inside the socket's own `lookup` (no second
 * lookup for a rebinding DNS server to answer differently). The connected peer is checked
 * again on connect. No redirect is followed: a 3xx is handed back as a status. Time and
 * size are bounded. Private, loopback and link-local targets are refused unless the
 * operator allows them (NOTIFY_ALLOW_PRIVATE_NETWORK, e.g. for an on-premises gateway).
 * By default every call opens a fresh connection; a caller that talks to one peer often (the
 * IT-interface client) may pass a keep-alive `guardedAgent`, whose every new socket gets the
 * same lookup and peer check, so a pooled socket is one that was checked when it connected.
 * outboundRaw() answers the headers and bytes too, for openid-client's fetch
 * (federation/upstream/guarded-fetch.ts), so that path has no guard of its own to drift.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPrivateAddress } from './ip-ranges.js';

export { isPrivateAddress } from './ip-ranges.js';

export class OutboundRefused extends Error {}

/** Name resolution, injectable so tests can play a rebinding DNS server. */
export type Resolver = (hostname: string) => Promise<dns.LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * Every address a host name stands for, refused as a whole if any of them is private:
 * checking only the first would let a mixed answer (or the happy-eyeballs fallback of
 * RFC 8305) reach the private one.
 */
async function checkedAddresses(host: string, allowPrivate: boolean, resolve: Resolver): Promise<dns.LookupAddress[]> {
  const family = net.isIP(host);
  const list = family ? [{ address: host, family }] : await resolve(host);
  if (list.length === 0) throw new OutboundRefused(`no address for ${host}`);
  if (!allowPrivate && list.some((a) => isPrivateAddress(a.address))) throw new OutboundRefused(`refused address for ${host}`);
  return list;
}

/** The socket's `lookup`: the answers it checks are the answers it connects to. */
function guardedLookup(allowPrivate: boolean, resolve: Resolver): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, cb: (...args: unknown[]) => void) => {
    checkedAddresses(hostname, allowPrivate, resolve).then(
      (all) => {
        const list = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (list.length === 0) return cb(new OutboundRefused(`no IPv${options.family} address for ${hostname}`));
        if (options.all) return cb(null, list);
        return cb(null, list[0]!.address, list[0]!.family);
      },
      (err: unknown) => cb(err),
    );
  }) as net.LookupFunction;
}

/**
 * Defence in depth: whatever the lookup decided, a socket whose peer is private is
 * destroyed before anything is written. The listener is prepended so it runs before the
 * socket flushes the request it buffered while connecting.
 */
export function guardPeer(socket: net.Socket, allowPrivate: boolean, fail: (err: Error) => void): void {
  if (allowPrivate) return;
  const check = (): void => {
    const peer = socket.remoteAddress;
    if (!peer || isPrivateAddress(peer)) fail(new OutboundRefused(`refused peer ${peer ?? '(none)'}`));
  };
  if (socket.connecting) socket.prependOnceListener('connect', check);
  else check();
}

export interface GuardedAgentOptions {
  https: boolean;
  allowPrivate: boolean;
  resolve?: Resolver;
  /** bound on open sockets to the peer (busy + idle) */
  maxSockets: number;
  /** an idle socket is closed after this (or sooner when the peer's Keep-Alive hint says so) */
  idleMs: number;
}

/**
 * A keep-alive agent for one peer whose sockets are all made as outbound()'s own: the checked
 * lookup is forced over whatever the request passed, and the peer check is armed on each new
 * socket before it connects. Reusing such a socket is safe: it is connected to an address
 * that was checked, and a later DNS answer cannot move it. The caller keys agents by scheme,
 * host, port and allowPrivate (federation/it/pool.ts), so a socket never serves another target.
 */
export function guardedAgent(o: GuardedAgentOptions): http.Agent {
  const lookup = guardedLookup(o.allowPrivate, o.resolve ?? systemResolver);
  const settings = { keepAlive: true, maxSockets: o.maxSockets, maxFreeSockets: o.maxSockets, timeout: o.idleMs, scheduling: 'lifo' as const };
  const agent = o.https ? new https.Agent(settings) : new http.Agent(settings);
  // createConnection is not in the typings of http.Agent, but it is the documented hook
  const hooked = agent as unknown as { createConnection: (opts: net.NetConnectOpts, cb?: unknown) => net.Socket };
  const create = hooked.createConnection.bind(agent);
  hooked.createConnection = (opts, cb) => {
    const socket = create({ ...opts, lookup }, cb);
    guardPeer(socket, o.allowPrivate, (err) => socket.destroy(err));
    return socket;
  };
  return agent;
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  /** a URL object is used as it is (a caller that built one is spared a second parse) */
  url: string | URL;
  headers?: Record<string, string>;
  body?: string;
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  /** a guardedAgent() for this exact scheme, host, port and allowPrivate; default: a fresh connection */
  agent?: http.Agent;
  /** ends the call early (a fetch caller's AbortSignal, federation/upstream/guarded-fetch.ts) */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  body: string;
}

/** The answer as it arrived, headers and bytes: for a caller that must read headers (a fetch adapter). */
export interface OutboundRawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface OutboundDeps {
  resolve?: Resolver;
}

/** Status and body as UTF-8 text: what the SMS gateways, webhooks and backends need. */
export async function outbound(req: OutboundRequest, deps: OutboundDeps = {}): Promise<OutboundResponse> {
  const res = await outboundRaw(req, deps);
  return { status: res.status, body: res.body.toString('utf8') };
}

/** outbound() with the response headers and the body's bytes; every check is the same. */
export async function outboundRaw(req: OutboundRequest, deps: OutboundDeps = {}): Promise<OutboundRawResponse> {
  let url: URL;
  try {
    url = typeof req.url === 'string' ? new URL(req.url) : req.url;
  } catch {
    throw new OutboundRefused('invalid url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefused('scheme');
  // The WHATWG parser has already turned 0x7f000001, 2130706433, 0177.0.0.1 and 127.1 into
  // 127.0.0.1, and [::ffff:127.0.0.1] into [::ffff:7f00:1]; IP literals skip `lookup`, so
  // they are checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !req.allowPrivate && isPrivateAddress(host)) throw new OutboundRefused(`refused address ${host}`);
  if (req.signal?.aborted) throw new Error('aborted');
  const maxBytes = req.maxBytes ?? 64 * 1024;
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const r = mod.request(
      url,
      {
        method: req.method,
        headers: req.headers,
        lookup: guardedLookup(req.allowPrivate, deps.resolve ?? systemResolver),
        // A fresh connection unless the caller passed a guarded pool: a pooled socket from any
        // other agent would skip both checks.
        agent: req.agent ?? false,
        timeout: req.timeoutMs ?? 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) return r.destroy(new Error('response too large'));
          chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    const signal = req.signal;
    if (signal) {
      const abort = (): void => void r.destroy(new Error('aborted'));
      signal.addEventListener('abort', abort, { once: true });
      // a long-lived signal must not collect one listener per finished call
      r.on('close', () => signal.removeEventListener('abort', abort));
    }
    // a reused socket is checked again here (it is connected: the check runs at once)
    r.on('socket', (socket) => guardPeer(socket, req.allowPrivate, (err) => r.destroy(err)));
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', reject);
    r.end(req.body);
  });
}

/**
 * Resolves a mail host and checks it like any outbound target; returns the checked address,
 * which the caller connects to by address (so nothing resolves the name a second time).
 */
export async function resolveChecked(host: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<string> {
  return (await checkedAddresses(host, allowPrivate, resolve))[0]!.address;
}
