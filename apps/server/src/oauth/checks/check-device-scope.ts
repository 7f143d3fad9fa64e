/**
 * scope at the device authorization endpoint (RFC 8628 §3.1: OPTIONAL), checked as the
 * authorization endpoint checks it (check-scope.ts): each one we know (openid, profile, email,
 * phone, offline_access) AND one the client may ask for, else invalid_scope. Omitted: the
 * client's registered scopes that we know (RFC 6749 §3.3 "a pre-defined default value").
 */
import { OAUTH_SCOPES } from '@umbo/contracts';
import type { OAuthClient } from '../../clients/clients.repo.js';
import { InvalidScope } from '../errors.js';

const KNOWN: ReadonlySet<string> = new Set(OAUTH_SCOPES);

export function checkDeviceScope(client: Pick<OAuthClient, 'scopes'>, requested: string | undefined): string {
  const scopes = requested === undefined ? client.scopes.filter((s) => KNOWN.has(s)) : [...new Set(requested.split(' ').filter(Boolean))];
  if (scopes.length === 0) throw new InvalidScope('scope is required: the client has no default scope');
  for (const s of scopes) {
    if (!KNOWN.has(s)) throw new InvalidScope(`unknown scope ${s.slice(0, 40)}`);
    if (!client.scopes.includes(s)) throw new InvalidScope(`scope ${s} is not allowed for this client`);
  }
  return scopes.join(' ');
}
