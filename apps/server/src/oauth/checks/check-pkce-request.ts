/**
 * PKCE at the authorization endpoint (AS-05; RFC 7636 §4.3, RFC 9700 §2.1.1):
 *   - S256 only: `plain`, and a challenge without a method (which RFC 7636 §4.3 defaults to
 *     plain), are refused with invalid_request;
 *   - an S256 challenge is BASE64URL(SHA256(verifier)) without padding: exactly 43 characters;
 *   - public clients (token_endpoint_auth_method none) MUST send one;
 *   - a method without a challenge is a malformed request.
 * The challenge is stored with the code and enforced at the token endpoint (and a verifier for
 * a code issued without one is refused there, AS-06).
 */
import type { OAuthClient } from '../../clients/clients.repo.js';
import { authorizeError } from '../authorize/errors.js';
import type { AuthorizeParams } from './params.js';

/** BASE64URL(SHA256(verifier)) without padding: 43 characters (RFC 7636 §4.2). */
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const isPublicClient = (client: Pick<OAuthClient, 'tokenEndpointAuthMethod'>) => client.tokenEndpointAuthMethod === 'none';

export function checkPkceRequest(client: OAuthClient, params: AuthorizeParams): string | undefined {
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (challenge === undefined) {
    if (method !== undefined) throw authorizeError('invalid_request', 'code_challenge_method without code_challenge');
    if (isPublicClient(client)) throw authorizeError('invalid_request', 'code_challenge is required for public clients (PKCE, S256)');
    return undefined;
  }
  if (method !== 'S256') throw authorizeError('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
  if (!S256_CHALLENGE.test(challenge)) throw authorizeError('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
  return challenge;
}
