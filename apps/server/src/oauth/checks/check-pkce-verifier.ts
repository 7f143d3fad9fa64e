/**
 * PKCE at the token endpoint (RFC 7636 §4.5–4.6; AS-05, AS-06; ). The code remembers
 * the S256 challenge of its authorization request (or none):
 *   - challenge and no verifier → invalid_grant (§4.6: enforced when a challenge was sent);
 *   - a verifier for a code issued without a challenge → invalid_grant (RFC 9700 §4.8.2: a
 *     downgrade attempt);
 *   - a verifier outside 43–128 characters of [A-Za-z0-9-._~] (§4.1) → invalid_grant;
 *   - BASE64URL(SHA256(verifier)) ≠ challenge → invalid_grant, compared in constant time.
 */
import crypto from 'node:crypto';
import { constantTimeEqual } from '../../platform/crypto.js';
import { InvalidGrant } from '../errors.js';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export const s256 = (verifier: string) => crypto.createHash('sha256').update(verifier).digest('base64url');

/** True when the presented verifier (or its absence) matches the code's challenge (or its absence). */
export function pkceMatches(challenge: string | null, verifier: string | undefined): boolean {
  if (challenge === null) return verifier === undefined;
  if (verifier === undefined || !VERIFIER.test(verifier)) return false;
  return constantTimeEqual(s256(verifier), challenge);
}

export function checkPkceVerifier(challenge: string | null, verifier: string | undefined): void {
  if (challenge === null && verifier !== undefined) throw new InvalidGrant('code_verifier sent for a code issued without code_challenge');
  if (challenge !== null && verifier === undefined) throw new InvalidGrant('code_verifier is required');
  if (verifier !== undefined && !VERIFIER.test(verifier)) throw new InvalidGrant('code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]');
  if (!pkceMatches(challenge, verifier)) throw new InvalidGrant('code_verifier does not match the code_challenge');
}
