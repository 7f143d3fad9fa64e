/**
 * A private_key_jwt client's registered public keys (RFC 7523 §2.2; contracts zClientJwks) as
 * verification keys: each key's algorithm is its own `alg`, or the one its type implies (EC
 * P-256 → ES256, RSA → RS256); keys of any other kind are skipped. The assertion's `kid`, if it
 * has one, only picks among these keys (AS-24: never a key the token brings).
 */
import crypto from 'node:crypto';
import type { ClientJwks } from '@umbo/contracts';
import { JwtError, keyFitsAlg, type JwsAlg, type VerificationKey } from '../jwt.js';

type Jwk = ClientJwks['keys'][number];

function algOf(jwk: Jwk): JwsAlg | undefined {
  if (jwk.alg !== undefined) return jwk.alg === 'ES256' || jwk.alg === 'RS256' ? jwk.alg : undefined;
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'RSA') return 'RS256';
  return undefined;
}

function toKey(jwk: Jwk, kid: string): VerificationKey | undefined {
  const alg = algOf(jwk);
  if (!alg) return undefined;
  try {
    const pub = jwk.kty === 'EC' ? { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y } : { kty: jwk.kty, n: jwk.n, e: jwk.e };
    const publicKey = crypto.createPublicKey({ key: pub as crypto.JsonWebKey, format: 'jwk' });
    return keyFitsAlg(alg, publicKey) ? { kid, alg, publicKey } : undefined;
  } catch {
    return undefined;
  }
}

function headerKid(jwt: string): string | undefined {
  const part = jwt.split('.')[0];
  if (!part || part.length > 4096) throw new JwtError('malformed', 'not a JWT');
  try {
    const kid = (JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { kid?: unknown }).kid;
    return typeof kid === 'string' ? kid : undefined;
  } catch {
    throw new JwtError('malformed', 'header is not JSON');
  }
}

/**
 * The keys that may verify `assertion`: the registered key its `kid` names; without a match
 * (or without a kid), the registered keys that have no kid of their own.
 */
export function assertionKeys(jwks: ClientJwks, assertion: string): { list: VerificationKey[]; kidOptional: boolean } {
  const kid = headerKid(assertion);
  const named = kid === undefined ? [] : jwks.keys.filter((k) => k.kid === kid);
  const chosen = named.length > 0 ? named : jwks.keys.filter((k) => k.kid === undefined);
  // the verifier compares the header's kid with ours: label the chosen keys with it
  const label = kid ?? '';
  const list = chosen.map((k) => toKey(k, label)).filter((k): k is VerificationKey => k !== undefined);
  return { list, kidOptional: kid === undefined };
}
