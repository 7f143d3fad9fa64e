/**
 * Compressed answers (issue 10). JSON and text bodies the server builds in memory (API
 * answers, /api/docs/json, /metrics, index.html) are sent as brotli or gzip when the client
 * accepts it and the body is at least `threshold` bytes. The built console's files are not
 * compressed here: they are streams, sent pre-compressed from disk (spa.ts, `preCompressed`).
 *
 * Compression is synchronous: bodies are small (a 27 KB permission set takes ~0.06 ms at
 * brotli quality 5 and shrinks to 2 %), and the libuv pool that async zlib would use is the
 * one argon2 keeps busy during sign-in storms. Never for event streams, never over a body that
 * already has a Content-Encoding or a validator (ETag) of its own.
 */
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface CompressionOptions {
  /** bodies below this many bytes go as they are (default 1024) */
  threshold?: number;
  /** brotli quality, 0–11 (default 5: as fast as 4 here, ~10 % smaller) */
  brotliQuality?: number;
  /** gzip level, 1–9 (default 6) */
  gzipLevel?: number;
}

export type Coding = 'br' | 'gzip' | 'identity';

/**
 * Bodies shared by many answers (platform/http.ts sendSerialized: an answer serialized once per
 * guard cache entry, such as the current user's ~29 KB permission set) and their compressed
 * forms, made once per coding: compressing the same bytes again on every request cost more
 * than the rest of the read. Weak: a body and its forms go when its cache entry does.
 */
const packedForms = new WeakMap<Buffer, Partial<Record<'br' | 'gzip', Buffer | null>>>();

export function markShared(body: Buffer): Buffer {
  if (!packedForms.has(body)) packedForms.set(body, {});
  return body;
}

const COMPRESSIBLE = /^(?:application\/(?:json|[\w.+-]+\+json|javascript|xml|[\w.+-]+\+xml)|text\/(?!event-stream)[\w.+-]+|image\/svg\+xml)\s*(?:;|$)/i;

/**
 * The coding to answer with for an Accept-Encoding header (RFC 9110 §12.5.3): the supported
 * coding with the highest q-value, brotli first on a tie; `*` stands for codings not named;
 * identity when nothing else is acceptable (we never refuse with 406).
 */
export function negotiateEncoding(header: string | string[] | undefined): Coding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [rawName, ...params] = part.trim().split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) weight = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    q.set(name === 'x-gzip' ? 'gzip' : name, weight);
  }
  const star = q.get('*');
  const weightOf = (coding: 'br' | 'gzip') => q.get(coding) ?? star ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const value = Array.isArray(current) ? current.join(', ') : current === undefined ? '' : String(current);
  if (!value) return void reply.header('vary', 'accept-encoding');
  const tokens = value.split(',').map((t) => t.trim().toLowerCase());
  if (!tokens.includes('accept-encoding') && !tokens.includes('*')) reply.header('vary', `${value}, accept-encoding`);
}

export function registerCompression(app: FastifyInstance, opts: CompressionOptions = {}): void {
  const threshold = opts.threshold ?? 1024;
  const brotliQuality = opts.brotliQuality ?? 5;
  const gzipLevel = opts.gzipLevel ?? 6;

  // A callback hook, not an async one: it adds no asynchronous step to the onSend chain, so
  // replies finish as soon as before. (An async handler that calls reply.send() without
  // returning the reply races that chain: one more await in it and Fastify sends twice.)
  app.addHook('onSend', (req, reply, payload, done) => {
    done(null, compress(req.headers['accept-encoding'], reply, payload));
  });

  function compress(acceptEncoding: string | string[] | undefined, reply: FastifyReply, payload: unknown): unknown {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // streams, files, empty
    // Small bodies first: most answers are, and each test below returns the body unchanged.
    if ((typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length) < threshold) return payload;
    if (reply.statusCode < 200 || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (reply.getHeader('content-encoding') !== undefined || reply.getHeader('etag') !== undefined) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    // From here the answer depends on Accept-Encoding, even when it goes out plain.
    addVary(reply);
    const coding = negotiateEncoding(acceptEncoding);
    if (coding === 'identity') return payload;
    // a shared body's form in this coding is made at its first request (null: no smaller, kept too)
    const forms = packedForms.get(body);
    let packed = forms?.[coding];
    if (packed === undefined) {
      packed = pack(coding, body);
      if (forms) forms[coding] = packed;
    }
    if (packed === null) return payload;
    reply.header('content-encoding', coding);
    // Fastify sets the length of what is sent; one set before (by a handler) would be the plain one.
    reply.removeHeader('content-length');
    return packed;
  }

  /** `body` in `coding`, or null when that is no smaller. */
  function pack(coding: 'br' | 'gzip', body: Buffer): Buffer | null {
    const packed =
      coding === 'br'
        ? zlib.brotliCompressSync(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : zlib.gzipSync(body, { level: gzipLevel });
    return packed.length >= body.length ? null : packed;
  }
}
