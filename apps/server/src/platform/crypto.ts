/** Random values, keyed hashes, constant-time comparison and encryption at rest. */
import crypto from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * CSPRNG bytes drawn 4 KiB at a time and each used once, as Node's randomUUID keeps its own
 * batch: a sign-in makes several ids and a token, and one system-random call each was a
 * measurable share of it (issue 14 bench).
 */
const pool = Buffer.alloc(4096);
let poolUsed = pool.length;

/** Unbiased random string over [A-Za-z0-9]; 32 chars ≈ 190 bits (SPEC §9, AS-12). */
export function randomString(length = 32, alphabet = ALNUM): string {
  // Rejection sampling keeps every character equally likely.
  const below = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    if (poolUsed === pool.length) {
      crypto.randomFillSync(pool);
      poolUsed = 0;
    }
    const b = pool[poolUsed++]!;
    if (b < below) out += alphabet[b % alphabet.length];
  }
  return out;
}

/**
 * 32 lowercase hex characters, 128 random bits from the same pool: request ids and token ids
 * (`jti`), which must be unique, not secret. randomUUID's alphabet and length without its
 * dashes, at about half the cost (issue 12 bench: both ran on every token).
 */
export function randomHexId(): string {
  if (pool.length - poolUsed < 16) {
    crypto.randomFillSync(pool);
    poolUsed = 0;
  }
  poolUsed += 16;
  return pool.toString('hex', poolUsed - 16, poolUsed);
}

export function randomDigits(length: number): string {
  return randomString(length, '0123456789');
}

export function newId(): string {
  return randomString(24).toLowerCase() + randomString(8, '0123456789abcdef');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length) {
    crypto.timingSafeEqual(x, x);
    return false;
  }
  return crypto.timingSafeEqual(x, y);
}

/**
 * HMAC-SHA256 (RFC 2104) under a key of at most 64 bytes, hex: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)),
 * the same bytes as createHmac's. Two one-shot hashes over padded keys computed once cost about
 * half of a createHmac per call, and every bearer token is hashed on every request (issue 11 bench).
 */
export function hmacSha256(key: Buffer): (message: string) => string {
  if (key.length > 64) throw new Error('hmacSha256: keys longer than the block are hashed first; not needed here');
  const inner = Buffer.alloc(64, 0x36);
  const outer = Buffer.alloc(64, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i]! ^= key[i]!;
    outer[i]! ^= key[i]!;
  }
  return (message) => crypto.hash('sha256', Buffer.concat([outer, crypto.hash('sha256', Buffer.concat([inner, Buffer.from(message)]), 'buffer')]), 'hex');
}

export interface Secrets {
  /** HMAC-SHA256 of a token under a purpose-specific key, hex. Tokens are stored only so. */
  hash(purpose: string, value: string): string;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function createSecrets(masterKey: Buffer): Secrets {
  const derive = (info: string) => Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), info, 32));
  const hmacKey = derive('umbo:hmac');
  const encKey = derive('umbo:enc');
  const sha256 = hmacSha256(hmacKey);
  return {
    hash(purpose, value) {
      return sha256(`${purpose}\0${value}`);
    },
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', encKey, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [v, iv, tag, body] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
      const d = crypto.createDecipheriv('aes-256-gcm', encKey, Buffer.from(iv, 'base64url'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
    },
  };
}
