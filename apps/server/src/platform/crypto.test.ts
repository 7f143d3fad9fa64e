import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecrets, hmacSha256, newId, randomHexId, randomString } from './crypto.js';

describe('hmacSha256', () => {
  it('gives the bytes createHmac gives, for keys up to the block size and any message', () => {
    for (const keyLength of [0, 1, 32, 63, 64]) {
      const key = crypto.randomBytes(keyLength);
      const mac = hmacSha256(key);
      for (const message of ['', 'session\0abc', 'é€😀'.repeat(40), 'x'.repeat(1000)]) {
        expect(mac(message)).toBe(crypto.createHmac('sha256', key).update(message).digest('hex'));
      }
    }
  });

  it('matches RFC 4231 test case 2', () => {
    expect(hmacSha256(Buffer.from('Jefe'))('what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('is what secrets.hash stores: purpose and value under the derived key', () => {
    const master = Buffer.alloc(32, 7);
    const key = Buffer.from(crypto.hkdfSync('sha256', master, Buffer.alloc(0), 'umbo:hmac', 32));
    expect(createSecrets(master).hash('session', 'tok')).toBe(crypto.createHmac('sha256', key).update('session\0tok').digest('hex'));
  });
});

describe('random strings', () => {
  it('are of the length and alphabet asked, and never repeat across many batches of random bytes', () => {
    // 2,000 ids draw well over the 4 KiB the bytes are taken from at a time
    const ids = Array.from({ length: 2000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]{24}[0-9a-f]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(randomString(7, 'ab')).toMatch(/^[ab]{7}$/);
  });

  it('hex ids: 32 lowercase hex characters, unique, also when drawn between strings from the same bytes', () => {
    // strings of odd lengths leave the pool at every offset, so ids are cut at every place a refill can fall
    const ids = Array.from({ length: 3000 }, (_, i) => (randomString(1 + (i % 7)), randomHexId()));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('use every character of the alphabet about equally (rejection sampling, no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (const c of randomString(62 * 2000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2,000 expected each; a biased generator gives 62/256 of them a quarter more
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(300);
  });
});
