/** RFC 6238 / RFC 4226 arithmetic and the key URI, no database needed. */
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchingSteps, newTotpSecret, otpauthUri, stepAt, totp, type TotpAlgorithm } from './totp.js';

// RFC 6238 Appendix B: seeds are the ASCII "1234567890" repeated to the hash's length.
const SEEDS: Record<TotpAlgorithm, Buffer> = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, string, string, string][] = [
  // time (s), SHA1, SHA256, SHA512 — 8 digits
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it('A-32 passes the RFC 6238 Appendix B SHA-1 vectors (and SHA-256/512)', () => {
    for (const [time, sha1, sha256, sha512] of VECTORS) {
      expect(totp(SEEDS.sha1, time * 1000, { digits: 8 })).toBe(sha1);
      expect(totp(SEEDS.sha256, time * 1000, { digits: 8, algorithm: 'sha256' })).toBe(sha256);
      expect(totp(SEEDS.sha512, time * 1000, { digits: 8, algorithm: 'sha512' })).toBe(sha512);
    }
  });

  it('passes the RFC 4226 Appendix D HOTP values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expected.forEach((code, counter) => expect(hotp(SEEDS.sha1, counter)).toBe(code));
  });

  it('A-32 seed is 160 bits from the CSPRNG, base32 round-trips', () => {
    const a = newTotpSecret();
    const b = newTotpSecret();
    expect(base32Decode(a)).toHaveLength(20);
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(a).not.toBe(b);
    expect(base32Encode(base32Decode(a))).toBe(a);
    // RFC 4648 §10 test vector
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
  });

  it('A-32 accepts ±1 step and nothing further, newest step first', () => {
    const key = SEEDS.sha1;
    const now = 1_700_000_000_000;
    const s = stepAt(now);
    expect(matchingSteps(key, hotp(key, s), now)).toEqual([s]);
    expect(matchingSteps(key, hotp(key, s - 1), now)).toEqual([s - 1]);
    expect(matchingSteps(key, hotp(key, s + 1), now)).toEqual([s + 1]);
    expect(matchingSteps(key, hotp(key, s - 2), now)).toEqual([]);
    expect(matchingSteps(key, hotp(key, s + 2), now)).toEqual([]);
    expect(matchingSteps(key, '12345', now)).toEqual([]);
  });

  it('builds the otpauth:// key URI authenticator apps read', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'umbo', 'alice'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/umbo:alice');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: 'JBSWY3DPEHPK3PXP', issuer: 'umbo', algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
