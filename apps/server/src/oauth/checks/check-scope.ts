/**
 * scope: space-separated, case-sensitive (RFC 6749 §3.3), each one we know (openid, profile,
 * email, phone, offline_access) AND one the client may ask for; else invalid_scope. Required:
 * we keep no per-client default scope.
 */
import { OAUTH_SCOPES } from '@umbo/contracts';
import type { OAuthClient } from '../../clients/clients.repo.js';
import { authorizeError } from '../authorize/errors.js';
import type { AuthorizeParams } from './params.js';

const KNOWN: ReadonlySet<string> = new Set(OAUTH_SCOPES);

export function checkScope(client: OAuthClient, params: AuthorizeParams): string[] {
  const raw = params.get('scope');
  if (raw === undefined) throw authorizeError('invalid_scope', 'scope is required');
  const scopes = [...new Set(raw.split(' ').filter(Boolean))];
  if (scopes.length === 0) throw authorizeError('invalid_scope', 'scope is required');
  for (const s of scopes) {
    if (!KNOWN.has(s)) throw authorizeError('invalid_scope', `unknown scope ${s.slice(0, 40)}`);
    if (!client.scopes.includes(s)) throw authorizeError('invalid_scope', `scope ${s} is not allowed for this client`);
  }
  return scopes;
}
