/**
 * The fetch openid-client uses for every call to an upstream provider (discovery, JWKS,
 * token; A-37): notify/outbound.ts's outboundRaw(), so the checks are outbound()'s own —
 * IP literals, every address a name resolves to, the connected peer; no redirect followed
 * (openid-client asks for `redirect: 'manual'` and treats a 3xx as a failure); time and size
 * bounded; private targets only when the operator allows them. This file only translates
 * fetch's shapes, because openid-client reads response headers (content-type, WWW-Authenticate).
 */
import { outboundRaw, OutboundRefused, type Resolver } from '../../notify/outbound.js';
import { UPSTREAM_DEFAULTS } from './defaults.js';

export interface GuardedFetchOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
}

type FetchInit = { method?: string; headers?: Record<string, string> | Headers | [string, string][]; body?: unknown; signal?: AbortSignal | null };

/** statuses a WHATWG Response must not carry a body with */
const NULL_BODY = new Set([101, 204, 205, 304]);

function bodyOf(b: unknown): string | undefined {
  if (b === undefined || b === null) return undefined;
  if (typeof b === 'string') return b;
  if (b instanceof URLSearchParams) return b.toString();
  throw new OutboundRefused('unsupported request body');
}

export function createGuardedFetch(o: GuardedFetchOptions) {
  return async function guardedFetch(input: string | URL, init: FetchInit = {}): Promise<Response> {
    // openid-client's calls to a provider are GET (discovery, JWKS) and POST (token)
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'POST') throw new OutboundRefused(`method ${method}`);
    const res = await outboundRaw(
      {
        method,
        url: String(input),
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        body: bodyOf(init.body),
        allowPrivate: o.allowPrivate,
        timeoutMs: o.timeoutMs ?? UPSTREAM_DEFAULTS.timeoutMs,
        maxBytes: o.maxBytes ?? UPSTREAM_DEFAULTS.maxResponseBytes,
        signal: init.signal ?? undefined,
      },
      { resolve: o.resolve },
    );
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    // an ArrayBuffer copy (≤ maxBytes): a Buffer is not a BodyInit under the DOM typings the browser suite compiles with
    const body = NULL_BODY.has(res.status) ? null : (res.body.buffer.slice(res.body.byteOffset, res.body.byteOffset + res.body.byteLength) as ArrayBuffer);
    return new Response(body, { status: res.status, headers });
  };
}
