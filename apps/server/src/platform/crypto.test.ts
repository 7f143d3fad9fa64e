import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecrets, hmacSha256 } from './crypto.js';

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
