/**
 * The request signature of the IT interface (docs/it-interface.md "Signature"): HMAC-SHA256
 * with the realm's appSercet over a canonical string of method, path, timestamp, nonce and
 * the SHA-256 of the body bytes. The body hash binds the exact bytes sent, so the JSON and the
 * form-post variants sign the same way. The reference backend (examples/it-backend) checks the
 * same string; a test keeps the two in step.
 */
import crypto from 'node:crypto';

export const SIGNATURE_SCHEME = 'UMBO-IT-HMAC-SHA256';
/** Headers (lower case, as Node hands them over). */
export const SIG_HEADERS = { key: 'x-it-key', timestamp: 'x-it-timestamp', nonce: 'x-it-nonce', signature: 'x-it-signature' } as const;

export function canonicalString(method: string, pathWithQuery: string, timestamp: string, nonce: string, body: string): string {
  // one-shot hash (a string is hashed as UTF-8): no Hash object per call (issue 14 bench)
  const bodyHash = crypto.hash('sha256', body, 'hex');
  return `${SIGNATURE_SCHEME}\n${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${bodyHash}`;
}

export function signatureOf(secret: string, canonical: string): string {
  return crypto.createHmac('sha256', secret).update(canonical, 'utf8').digest('hex');
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Random bytes drawn 4 KiB at a time (as crypto.randomUUID caches its entropy): one call into
// the CSPRNG per ~100 requests instead of one per request.
let pool = Buffer.alloc(0);
let at = 0;

/** 32 random letters and digits (docs "X-IT-Nonce"), every character equally likely. */
export function newNonce(length = 32): string {
  let out = '';
  while (out.length < length) {
    if (at >= pool.length) {
      pool = crypto.randomBytes(4096);
      at = 0;
    }
    const b = pool[at++]!;
    // rejection sampling: 248 = 4 × 62, so b % 62 is uniform below it
    if (b < 248) out += ALNUM[b % 62];
  }
  return out;
}

/** The four headers of one request; `nowMs` from the server's clock. */
export function signRequest(o: { appKey: string; secret: string; method: string; pathWithQuery: string; body: string; nowMs: number }): Record<string, string> {
  const timestamp = String(Math.floor(o.nowMs / 1000));
  const nonce = newNonce();
  const signature = signatureOf(o.secret, canonicalString(o.method, o.pathWithQuery, timestamp, nonce, o.body));
  return { [SIG_HEADERS.key]: o.appKey, [SIG_HEADERS.timestamp]: timestamp, [SIG_HEADERS.nonce]: nonce, [SIG_HEADERS.signature]: signature };
}
