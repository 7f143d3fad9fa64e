/**
 * state and nonce are opaque to us and travel back unchanged (RFC 6749 §4.1.2, OIDC Core
 * §3.1.2.1); only their size is bounded, since both are carried in URLs and stored.
 */
import { authorizeError } from '../authorize/errors.js';
import type { AuthorizeParams } from './params.js';

export const STATE_MAX = 2048;
export const NONCE_MAX = 512;

export function checkStateAndNonce(params: AuthorizeParams): { state: string | undefined; nonce: string | undefined } {
  const state = params.get('state');
  const nonce = params.get('nonce');
  if (state !== undefined && state.length > STATE_MAX) throw authorizeError('invalid_request', `state is longer than ${STATE_MAX} characters`);
  if (nonce !== undefined && nonce.length > NONCE_MAX) throw authorizeError('invalid_request', `nonce is longer than ${NONCE_MAX} characters`);
  return { state, nonce };
}
