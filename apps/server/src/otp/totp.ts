/**
 * HOTP (RFC 4226 §5) and TOTP (RFC 6238 §4) on node:crypto, plus the base32 of RFC 4648 §6
 * that authenticator apps read from otpauth:// URIs. Time comes from the caller (the
 * injected clock, A-47); the 64-bit counter is written in full (RFC 6238 §4.2: T is a
 * 64-bit value, which Appendix B's year-2603 vector needs).
 */
import crypto from 'node:crypto';

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export const TOTP = {
  /** RFC 6238 §5.2 recommends 30 s */
  periodSeconds: 30,
  digits: 6,
  algorithm: 'sha1' as TotpAlgorithm,
  /** RFC 6238 §5.2: at most one step of network delay / clock drift either way */
  skewSteps: 1,
  /** RFC 4226 §4 R6: at least 128 bits, 160 recommended — we use 160 */
  secretBytes: 20,
} as const;

/** RFC 4226 §5.3: HMAC, dynamic truncation, modulo 10^digits. */
export function hotp(key: Buffer, counter: bigint | number, digits: number = TOTP.digits, algorithm: TotpAlgorithm = TOTP.algorithm): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac(algorithm, key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238 §4.2: T = floor((now - T0) / X), T0 = 0. */
export function stepAt(timeMs: number, periodSeconds: number = TOTP.periodSeconds): number {
  return Math.floor(timeMs / 1000 / periodSeconds);
}

export function totp(key: Buffer, timeMs: number, opts: { digits?: number; algorithm?: TotpAlgorithm; periodSeconds?: number } = {}): string {
  return hotp(key, stepAt(timeMs, opts.periodSeconds), opts.digits, opts.algorithm);
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 §6 without padding, as Google Authenticator's key URI format expects. */
export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const v = B32.indexOf(ch);
    if (v < 0) throw new Error('not base32');
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A fresh secret from the CSPRNG, base32 (A-32: ≥ 160 bits). */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(TOTP.secretBytes));
}

/**
 * Key URI for authenticator apps (`otpauth://totp/Issuer:account?secret=…&issuer=…`),
 * rendered as a QR code by the console.
 */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const q = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(TOTP.digits), period: String(TOTP.periodSeconds) });
  return `otpauth://totp/${label}?${q.toString()}`;
}

/**
 * Steps within ±skew of `now` whose code equals `code`, newest first; compared in constant
 * time. The caller decides which of them is still unused.
 */
export function matchingSteps(key: Buffer, code: string, nowMs: number, skew: number = TOTP.skewSteps): number[] {
  const current = stepAt(nowMs);
  const hits: number[] = [];
  for (let s = current + skew; s >= current - skew; s--) {
    const expected = hotp(key, s);
    if (code.length === expected.length && crypto.timingSafeEqual(Buffer.from(code), Buffer.from(expected))) hits.push(s);
  }
  return hits;
}
