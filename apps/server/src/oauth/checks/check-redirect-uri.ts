/**
 * redirect_uri is one of the client's registered URIs, compared as plain strings (AS-01;
 * RFC 9700 §4.1.3, OIDC Core §3.1.2.1 "MUST exactly match"; RFC 3986 §6.2.1 simple string
 * comparison): no normalisation, no case folding, no prefix, no pattern. The single exception
 * is RFC 8252 §7.3: for a registered loopback IP literal URI (http://127.0.0.1 or http://[::1])
 * any port is accepted, everything else still exact ("localhost" is not a loopback literal
 * here, RFC 8252 §8.3).
 *
 * Omitted redirect_uri: RFC 6749 §3.1.2.3 lets a client with exactly one registered URI leave
 * it out; OIDC Core §3.1.2.1 makes it REQUIRED in an OpenID request (scope contains openid),
 * so there it must be present (oidcc-ensure-redirect-uri-in-authorization-request).
 */
import type { OAuthClient } from '../../clients/clients.repo.js';
import { authorizeError } from '../authorize/errors.js';
import type { AuthorizeParams } from './params.js';

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?((?:[/?][^]*)?)$/;

function loopbackParts(uri: string): { host: string; port: number | undefined; rest: string } | undefined {
  const m = LOOPBACK.exec(uri);
  if (!m) return undefined;
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && (port < 1 || port > 65535 || m[2]!.startsWith('0'))) return undefined;
  return { host: m[1]!, port, rest: m[3]! };
}

/** The registered URI `requested` matches, by exact string or loopback port variance. */
export function matchesRegistered(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const asked = loopbackParts(requested);
  if (!asked) return false;
  return registered.some((r) => {
    const reg = loopbackParts(r);
    return reg !== undefined && reg.host === asked.host && reg.rest === asked.rest;
  });
}

export interface CheckedRedirect {
  /** where the answer goes */
  redirectUri: string;
  /** false: omitted in the request (then the token request may omit it too, RFC 6749 §4.1.3) */
  given: boolean;
}

export function checkRedirectUri(client: OAuthClient, params: AuthorizeParams): CheckedRedirect {
  const requested = params.get('redirect_uri');
  if (requested === undefined) {
    const openid = (params.get('scope') ?? '').split(' ').includes('openid');
    if (openid) throw authorizeError('invalid_request', 'redirect_uri is required in an OpenID Connect request');
    if (client.redirectUris.length !== 1) throw authorizeError('invalid_request', 'redirect_uri is required: the client has more than one');
    return { redirectUri: client.redirectUris[0]!, given: false };
  }
  if (requested.length > 2048 || !matchesRegistered(client.redirectUris, requested)) {
    throw authorizeError('invalid_request', 'redirect_uri is not registered for this client');
  }
  return { redirectUri: requested, given: true };
}
