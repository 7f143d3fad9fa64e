/**
 * A-23 (AS-23, AS-24) and A-47: the JWT verifier refuses every forgery and confusion in
 * SECURITY.md, and accepts the genuine token next to each (so no test passes by accident).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createSignatureCache,
  generateKeyPair,
  JwtError,
  publicJwk,
  signJwt,
  verifyJwt,
  type SigningKey,
  type VerificationKey,
  type VerifyOptions,
} from './jwt.js';

const ISS = 'http://umbo.test/realms/r1';
const NOW = Date.UTC(2026, 0, 1, 12);
const nowSec = Math.floor(NOW / 1000);

const es = generateKeyPair('ES256');
const rs = generateKeyPair('RS256');
const esKey: SigningKey = { kid: 'es-1', alg: 'ES256', privateKey: es.privateKey };
const rsKey: SigningKey = { kid: 'rs-1', alg: 'RS256', privateKey: rs.privateKey };
const keys: VerificationKey[] = [
  { kid: 'es-1', alg: 'ES256', publicKey: es.publicKey },
  { kid: 'rs-1', alg: 'RS256', publicKey: rs.publicKey },
];
const opts: VerifyOptions = { typ: 'at+jwt', issuer: ISS, audience: 'api', now: NOW };
const claims = (extra: Record<string, unknown> = {}) => ({ iss: ISS, aud: 'api', sub: 'u1', iat: nowSec, exp: nowSec + 300, ...extra });

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
/** A token with any header, signed by `sign` over the signing input. */
function forge(header: Record<string, unknown>, payload: object, sign: (input: string) => Buffer | string = () => ''): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const sig = sign(input);
  return `${input}.${typeof sig === 'string' ? sig : sig.toString('base64url')}`;
}
const hs256 = (secret: crypto.BinaryLike) => (input: string) => crypto.createHmac('sha256', secret).update(input).digest();

function reasonOf(jwt: string, o: Partial<VerifyOptions> = {}, ks: VerificationKey[] = keys): string {
  try {
    verifyJwt(jwt, ks, { ...opts, ...o });
    return 'accepted';
  } catch (err) {
    if (!(err instanceof JwtError)) throw err;
    return err.reason;
  }
}

describe('A-23 JWT verifier', () => {
  it('accepts genuine ES256 and RS256 tokens (the baseline every rejection below differs from)', () => {
    const es256 = signJwt(esKey, { typ: 'at+jwt' }, claims());
    const rs256 = signJwt(rsKey, { typ: 'at+jwt' }, claims());
    expect(verifyJwt(es256, keys, opts).payload.sub).toBe('u1');
    expect(verifyJwt(rs256, keys, opts).header).toMatchObject({ alg: 'RS256', kid: 'rs-1', typ: 'at+jwt' });
    // ES256 signatures are R||S, 64 bytes (RFC 7518 §3.4)
    expect(Buffer.from(es256.split('.')[2]!, 'base64url')).toHaveLength(64);
  });

  it('alg none is rejected, with or without a signature part', () => {
    expect(reasonOf(forge({ alg: 'none', kid: 'es-1', typ: 'at+jwt' }, claims()))).toBe('malformed');
    expect(reasonOf(forge({ alg: 'none', kid: 'es-1', typ: 'at+jwt' }, claims(), () => 'AAAA'))).toBe('alg');
    expect(reasonOf(forge({ alg: 'None', typ: 'at+jwt' }, claims(), () => 'AAAA'))).toBe('alg');
  });

  it('HS256 keyed with our RSA public key (PEM, DER, JWK n) is rejected', () => {
    const pem = rs.publicKey.export({ format: 'pem', type: 'spki' });
    const der = rs.publicKey.export({ format: 'der', type: 'spki' });
    const n = (rs.publicKey.export({ format: 'jwk' }) as { n: string }).n;
    for (const secret of [pem, der, n, Buffer.from(n, 'base64url')]) {
      for (const kid of ['rs-1', 'es-1', undefined]) {
        const jwt = forge({ alg: 'HS256', typ: 'at+jwt', ...(kid ? { kid } : {}) }, claims(), hs256(secret));
        expect(reasonOf(jwt)).toBe('alg');
        expect(reasonOf(jwt, { kidOptional: true })).toBe('alg');
      }
    }
  });

  it('a token cannot switch its key to another algorithm (RS256 header on the ES256 kid and back)', () => {
    const rsSigned = signJwt({ ...rsKey, kid: 'es-1' }, { typ: 'at+jwt' }, claims());
    expect(reasonOf(rsSigned)).toBe('alg');
    const esSigned = signJwt({ ...esKey, kid: 'rs-1' }, { typ: 'at+jwt' }, claims());
    expect(reasonOf(esSigned)).toBe('alg');
  });

  it('kid is untrusted input: path traversal, SQL-ish and unknown kids are unknown keys', () => {
    for (const kid of ['../../dev/null', "' OR 1=1--", 'unknown', 'ES-1', 'es-1 ', '', 'x'.repeat(500)]) {
      const jwt = signJwt({ ...esKey, kid }, { typ: 'at+jwt' }, claims());
      expect(reasonOf(jwt)).toBe('kid');
    }
    // a kid that is not a string
    expect(reasonOf(forge({ alg: 'ES256', kid: ['es-1'], typ: 'at+jwt' }, claims(), () => 'AAAA'))).toBe('kid');
    // no kid at all, unless the caller allows it
    const noKid = forge({ alg: 'ES256', typ: 'at+jwt' }, claims(), (i) =>
      crypto.sign('sha256', Buffer.from(i), { key: es.privateKey, dsaEncoding: 'ieee-p1363' }),
    );
    expect(reasonOf(noKid)).toBe('kid');
    expect(reasonOf(noKid, { kidOptional: true })).toBe('accepted');
  });

  it('an embedded jwk header is refused, even when it is our own key', () => {
    const attacker = generateKeyPair('ES256');
    const sign = (k: crypto.KeyObject) => (i: string) => crypto.sign('sha256', Buffer.from(i), { key: k, dsaEncoding: 'ieee-p1363' });
    const own = forge({ alg: 'ES256', typ: 'at+jwt', jwk: publicJwk('a', 'ES256', attacker.publicKey) }, claims(), sign(attacker.privateKey));
    expect(reasonOf(own)).toBe('header');
    expect(reasonOf(own, { kidOptional: true })).toBe('header');
    const ours = forge({ alg: 'ES256', kid: 'es-1', typ: 'at+jwt', jwk: publicJwk('es-1', 'ES256', es.publicKey) }, claims(), sign(es.privateKey));
    expect(reasonOf(ours)).toBe('header');
  });

  describe('jku / x5u / x5c point to a server that must never be asked', () => {
    let server: http.Server;
    let url = '';
    let hits = 0;
    beforeAll(async () => {
      server = http.createServer((_req, res) => {
        hits++;
        res.end(JSON.stringify({ keys: [] }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('all rejected, and no request reached the server', async () => {
      const attacker = generateKeyPair('RS256');
      const sign = (i: string) => crypto.sign('sha256', Buffer.from(i), attacker.privateKey);
      const cert = Buffer.from('not really a certificate').toString('base64');
      for (const extra of [{ jku: url }, { x5u: url }, { x5c: [cert] }, { jku: url, kid: 'rs-1' }, { x5u: url, kid: 'rs-1' }]) {
        const jwt = forge({ alg: 'RS256', typ: 'at+jwt', kid: 'attacker', ...extra }, claims(), sign);
        expect(reasonOf(jwt, { kidOptional: true })).toBe('header');
      }
      // give a (wrongly) started fetch the time to arrive
      await new Promise((r) => setTimeout(r, 100));
      expect(hits).toBe(0);
      // the server does answer when asked: the zero above means nobody asked
      await fetch(url);
      expect(hits).toBe(1);
    });
  });

  it('a tampered payload or signature is rejected', () => {
    const jwt = signJwt(esKey, { typ: 'at+jwt' }, claims());
    const [h, , s] = jwt.split('.');
    expect(reasonOf(`${h}.${b64(claims({ sub: 'admin' }))}.${s}`)).toBe('signature');
    const rsJwt = signJwt(rsKey, { typ: 'at+jwt' }, claims());
    const [rh, , rsig] = rsJwt.split('.');
    expect(reasonOf(`${rh}.${b64(claims({ sub: 'admin' }))}.${rsig}`)).toBe('signature');
    // a DER-encoded ECDSA signature of the right input is not a JWS signature
    const der = crypto.sign('sha256', Buffer.from(jwt.split('.').slice(0, 2).join('.')), es.privateKey);
    expect(reasonOf(`${jwt.split('.').slice(0, 2).join('.')}.${der.toString('base64url')}`)).toBe('signature');
    expect(reasonOf(`${jwt}.extra`)).toBe('malformed');
    expect(reasonOf(jwt.replace(/\.[^.]*$/, '.'))).toBe('malformed');
    expect(reasonOf('not-a-jwt')).toBe('malformed');
  });

  it('crit headers are refused (RFC 7515 §4.1.11)', () => {
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt', crit: ['exp'] } as { typ: string }, claims()))).toBe('header');
  });

  it('exp past beyond the leeway is rejected; within it accepted; a larger tolerance is capped at 60 s', () => {
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: nowSec - 61 })))).toBe('exp');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: nowSec - 30 })))).toBe('accepted');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: nowSec - 300 })), { clockToleranceSec: 3600 })).toBe('exp');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: nowSec - 30 })), { clockToleranceSec: 0 })).toBe('exp');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: undefined })))).toBe('exp');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: String(nowSec + 300) })))).toBe('exp');
    // id_token_hint (RP-Initiated Logout §2): a past exp may be allowed, everything else still holds
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: nowSec - 3600 })), { allowExpired: true })).toBe('accepted');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: undefined })), { allowExpired: true })).toBe('exp');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: nowSec - 3600, iss: 'x' })), { allowExpired: true })).toBe('iss');
  });

  it('nbf in the future beyond the leeway is rejected', () => {
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ nbf: nowSec + 120 })))).toBe('nbf');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ nbf: nowSec + 30 })))).toBe('accepted');
  });

  it('wrong iss, aud or typ is rejected', () => {
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ iss: 'http://umbo.test/realms/r2' })))).toBe('iss');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ iss: `${ISS}/` })))).toBe('iss');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ aud: 'other' })))).toBe('aud');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ aud: ['other', 'api'] })))).toBe('accepted');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ aud: undefined })))).toBe('aud');
    // AS-23: an ID token (typ JWT) is not an access token, and the other way round
    const idToken = signJwt(esKey, { typ: 'JWT' }, claims());
    expect(reasonOf(idToken)).toBe('typ');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims()), { typ: 'JWT' })).toBe('typ');
    expect(reasonOf(forge({ alg: 'ES256', kid: 'es-1' }, claims(), () => 'AAAA'))).toBe('typ');
    // RFC 7515 §4.1.9 / RFC 8725 §3.11: case-insensitive, optional application/ prefix
    expect(reasonOf(signJwt(esKey, { typ: 'AT+JWT' }, claims()))).toBe('accepted');
    expect(reasonOf(signJwt(esKey, { typ: 'application/at+jwt' }, claims()))).toBe('accepted');
    expect(reasonOf(idToken, { typ: 'JWT' })).toBe('accepted');
  });
});

describe('A-47 clock skew', () => {
  it('iat or nbf 5 minutes ahead of the server clock is rejected; within 60 s accepted', () => {
    for (const skew of [5 * 60, -5 * 60]) {
      const iat = nowSec + skew;
      const jwt = signJwt(esKey, { typ: 'at+jwt' }, claims({ iat, nbf: iat, exp: iat + 120 }));
      // ahead: not yet valid; from a clock 5 min behind, a 2-min token has already expired
      expect(reasonOf(jwt)).toBe(skew > 0 ? 'nbf' : 'exp');
    }
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ iat: nowSec + 5 * 60 })))).toBe('iat');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ iat: nowSec + 61 })))).toBe('iat');
    expect(reasonOf(signJwt(esKey, { typ: 'at+jwt' }, claims({ iat: nowSec + 59, nbf: nowSec + 59 })))).toBe('accepted');
  });

  it('the verifier decides by the clock it is given, not the machine clock', () => {
    const jwt = signJwt(esKey, { typ: 'at+jwt' }, claims());
    expect(reasonOf(jwt, { now: NOW + 10 * 60 * 1000 })).toBe('exp');
    expect(reasonOf(jwt, { now: NOW - 10 * 60 * 1000 })).toBe('iat');
  });
});

describe('signatures verified before (createSignatureCache)', () => {
  afterEach(() => vi.restoreAllMocks());
  const reasonWith = (seen: ReturnType<typeof createSignatureCache>, jwt: string, o: Partial<VerifyOptions> = {}, ks: VerificationKey[] = keys) => {
    try {
      verifyJwt(jwt, ks, { ...opts, ...o }, seen);
      return 'accepted';
    } catch (err) {
      if (!(err instanceof JwtError)) throw err;
      return err.reason;
    }
  };

  it('a token seen before skips the signature only: header and claims are checked on every call', () => {
    const seen = createSignatureCache();
    const jwt = signJwt(esKey, { typ: 'at+jwt' }, claims());
    expect(reasonWith(seen, jwt)).toBe('accepted');
    const verify = vi.spyOn(crypto, 'verify');
    expect(reasonWith(seen, jwt)).toBe('accepted');
    expect(verify).not.toHaveBeenCalled();
    expect(reasonWith(seen, jwt, { now: NOW + 10 * 60 * 1000 })).toBe('exp');
    expect(reasonWith(seen, jwt, { now: NOW - 10 * 60 * 1000 })).toBe('iat');
    expect(reasonWith(seen, jwt, { typ: 'JWT' })).toBe('typ');
    expect(reasonWith(seen, jwt, { audience: 'other' })).toBe('aud');
    expect(reasonWith(seen, jwt, { issuer: 'http://umbo.test/realms/r2' })).toBe('iss');
    // what every caller is handed cannot be changed by one of them
    expect(Object.isFrozen(verifyJwt(jwt, keys, opts, seen).payload)).toBe(true);
  });

  it('only the very key that verified it counts: a withdrawn or replaced key means a full verification', () => {
    const seen = createSignatureCache();
    const jwt = signJwt(esKey, { typ: 'at+jwt' }, claims());
    expect(reasonWith(seen, jwt)).toBe('accepted');
    expect(reasonWith(seen, jwt, {}, [keys[1]!])).toBe('kid');
    const other = generateKeyPair('ES256');
    expect(reasonWith(seen, jwt, {}, [{ kid: 'es-1', alg: 'ES256', publicKey: other.publicKey }])).toBe('signature');
    const verify = vi.spyOn(crypto, 'verify');
    expect(reasonWith(seen, jwt, {}, [{ ...keys[0]! }])).toBe('accepted');
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('failures are not kept, a changed character is another token, and the cache is bounded', () => {
    const seen = createSignatureCache(2);
    const jwt = signJwt(esKey, { typ: 'at+jwt' }, claims());
    const [h, p, s] = jwt.split('.') as [string, string, string];
    expect(reasonWith(seen, `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BA' : 'AA'}`)).toBe('signature');
    expect(reasonWith(seen, signJwt(esKey, { typ: 'at+jwt' }, claims({ exp: nowSec - 300 })))).toBe('exp');
    expect(seen.size).toBe(0);
    expect(reasonWith(seen, jwt)).toBe('accepted');
    expect(reasonWith(seen, `${h}.${b64(claims({ sub: 'admin' }))}.${s}`)).toBe('signature');
    for (const sub of ['a', 'b', 'c']) expect(reasonWith(seen, signJwt(esKey, { typ: 'at+jwt' }, claims({ sub })))).toBe('accepted');
    expect(seen.size).toBe(2);
    expect(seen.get(jwt)).toBeUndefined();
  });
});
