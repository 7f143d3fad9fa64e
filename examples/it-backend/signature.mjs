// The signature check of docs/it-interface.md "Signature": what an operator's backend must do
// with every request before reading it.
import crypto from 'node:crypto';

export const SCHEME = 'UMBO-IT-HMAC-SHA256';
export const MAX_SKEW_SECONDS = 300;

export function canonicalString(method, pathWithQuery, timestamp, nonce, bodyBytes) {
  const bodyHash = crypto.createHash('sha256').update(bodyBytes).digest('hex');
  return [SCHEME, method.toUpperCase(), pathWithQuery, timestamp, nonce, bodyHash].join('\n');
}

/**
 * Answers null when the request is genuine, else the reason it is refused.
 * `seenNonce(nonce, expiresAtSeconds)` must record the nonce and answer true if it was already there.
 */
export function verifySignature(req, bodyBytes, { appKey, appSecret, nowSeconds, seenNonce }) {
  const key = req.headers['x-it-key'];
  const ts = req.headers['x-it-timestamp'];
  const nonce = req.headers['x-it-nonce'];
  const sig = req.headers['x-it-signature'];
  if (typeof key !== 'string' || typeof ts !== 'string' || typeof nonce !== 'string' || typeof sig !== 'string') return 'missing_headers';
  if (key !== appKey) return 'unknown_key';
  if (!/^\d{1,12}$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > MAX_SKEW_SECONDS) return 'stale_timestamp';
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) return 'bad_nonce';
  const expected = crypto
    .createHmac('sha256', appSecret)
    .update(canonicalString(req.method, req.url, ts, nonce, bodyBytes))
    .digest();
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(sig) ? sig : '', 'hex');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'bad_signature';
  // only a genuine request spends its nonce; it is kept as long as its timestamp could be accepted
  if (seenNonce(nonce, Number(ts) + MAX_SKEW_SECONDS)) return 'replayed_nonce';
  return null;
}
