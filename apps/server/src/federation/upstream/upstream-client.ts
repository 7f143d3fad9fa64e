/**
 * The relying party of a realm at its upstream OpenID provider (issue 14): an openid-client
 * configuration made by discovery from the realm's oidcWellknowEndpoint, every call through
 * the guarded fetch. openid-client does the protocol and all validation — the
 * authorization response (state, RFC 9207 iss), PKCE, and the ID token (issuer, audience,
 * signature against the upstream JWKS, nonce, expiry): nothing here checks a token by hand.
 *
 * Discovery is required for OpenID: the explicit loginEndpoint/tokenEndpoint name no issuer
 * and no JWKS, so an ID token could not be validated with them alone (the settings schema
 * already requires oidcWellknowEndpoint when isOIDC is on).
 *
 * The configuration is kept per realm for UPSTREAM_DEFAULTS.discoveryCacheMs, so a start and
 * its callback do not fetch discovery again, and openid-client (oauth4webapi) keeps the JWKS
 * with it: it is held per configuration for 5 minutes, and an ID token whose key is not in it
 * makes oauth4webapi fetch the JWKS again once the cached copy is 60 s old
 * (getPublicSigKeyFromIssuerJwksUri). A key-selection failure also drops the realm's entry
 * (forget), so a rotation within those 60 s costs one failed sign-in, not five minutes of them.
 */
import { createHash } from 'node:crypto';
import type * as OpenIdClient from 'openid-client';
import type { Clock } from '../../platform/clock.js';
import type { StoredOAuth } from '../../realms/realm-settings.backend.js';
import { fail } from '../../platform/errors.js';
import { UPSTREAM_DEFAULTS } from './defaults.js';
import { createGuardedFetch } from './guarded-fetch.js';

export interface UpstreamClientDeps {
  /** opens a sealed secret of the realm's settings */
  open(sealed: string): string;
  /** the operator's NOTIFY_ALLOW_PRIVATE_NETWORK: upstreams on private addresses only then */
  allowPrivate: boolean;
  clock: Clock;
}

/**
 * openid-client is loaded by the first discovery, not at start: a server without an upstream
 * provider never needs it (issue 12 memory budget). Every use of `oidc` follows a configOf
 * (here and in upstream.service.ts), so it is set by then; it is an ES module only, hence the
 * dynamic import.
 */
let oidc: typeof OpenIdClient;
let loading: Promise<void> | undefined;
function loadOpenIdClient(): Promise<void> {
  loading ??= import('openid-client').then((m) => {
    oidc = m;
  });
  return loading;
}

/** oauth4webapi's code for "no key of the JWKS fits the ID token" (an unknown kid: a rotation) */
export const isKeySelectionError = (err: unknown) => (err as { code?: unknown } | null)?.code === 'OAUTH_KEY_SELECTION_FAILED';

/** The scope sent: the realm's accessTokenScope, with `openid` always (OIDC Core §3.1.2.1). */
export function scopeOf(o: Pick<StoredOAuth, 'accessTokenScope'>): string {
  const scopes = o.accessTokenScope.split(' ').filter(Boolean);
  return (scopes.includes('openid') ? scopes : ['openid', ...scopes]).join(' ');
}

/** openid-client's failures: a network/guard failure is the upstream being away, the rest a refused answer. */
export function upstreamError(err: unknown, step: string) {
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) {
    return fail('UPSTREAM_SIGN_IN_FAILED', { reason: `${step}: ${err.error}` });
  }
  if (err instanceof oidc.WWWAuthenticateChallengeError) return fail('UPSTREAM_SIGN_IN_FAILED', { reason: `${step}: client authentication` });
  const code = (err as { code?: string }).code;
  // OAUTH_* codes are validation failures of an answer that did arrive (oauth4webapi)
  if (typeof code === 'string' && code.startsWith('OAUTH_') && step !== 'discovery') {
    return fail('UPSTREAM_SIGN_IN_FAILED', { reason: `${step}: ${code}` });
  }
  return fail('UPSTREAM_UNAVAILABLE', { reason: step });
}

export function createUpstreamClient(d: UpstreamClientDeps) {
  const guardedFetch = createGuardedFetch({ allowPrivate: d.allowPrivate });

  /** realm → its discovered configuration, while the settings it came from are unchanged */
  const cache = new Map<string, { key: string; at: number; config: Promise<OpenIdClient.Configuration> }>();

  /**
   * The settings discovery depends on. The sealed secret is hashed, not opened: a new secret
   * is a new sealed value (so is the same secret saved again: one needless discovery).
   */
  const settingsKey = (o: StoredOAuth) =>
    JSON.stringify([
      o.oidcWellknowEndpoint,
      o.clientID,
      createHash('sha256')
        .update(o.clientSecret ?? '')
        .digest('base64url'),
    ]);

  /** The realm's configuration: cached, or discovered (concurrent callers share one discovery; a failed one is not kept). */
  function configOf(realmId: string, o: StoredOAuth): Promise<OpenIdClient.Configuration> {
    const key = settingsKey(o);
    const now = d.clock.now();
    const hit = cache.get(realmId);
    if (hit && hit.key === key && now - hit.at < UPSTREAM_DEFAULTS.discoveryCacheMs) return hit.config;
    const entry = { key, at: now, config: discover(o) };
    cache.set(realmId, entry);
    entry.config.catch(() => {
      if (cache.get(realmId) === entry) cache.delete(realmId);
    });
    return entry.config;
  }

  /** The next sign-in of the realm discovers again (and so fetches the JWKS again). */
  function forget(realmId: string): void {
    cache.delete(realmId);
  }

  async function discover(o: StoredOAuth): Promise<OpenIdClient.Configuration> {
    await loadOpenIdClient();
    const wellKnown = new URL(o.oidcWellknowEndpoint);
    const secret = o.clientSecret ? d.open(o.clientSecret) : undefined;
    // SPEC §5 accepts http URLs for the realm's endpoints: the operator's choice, honoured as given
    const insecure = wellKnown.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
    // OIDC Core §3.1.3.7 lets a client skip the ID token's signature when it came straight from
    // the token endpoint over TLS, and openid-client does; the issue asks for the signature
    // against the upstream's JWKS always (and the endpoint may be plain http), so: on.
    const checks = [oidc.enableNonRepudiationChecks];
    try {
      return await oidc.discovery(wellKnown, o.clientID, secret ? { client_secret: secret } : {}, secret ? undefined : oidc.None(), {
        [oidc.customFetch]: guardedFetch as unknown as OpenIdClient.CustomFetch,
        execute: [...insecure, ...checks],
      });
    } catch (err) {
      throw upstreamError(err, 'discovery');
    }
  }

  return { configOf, forget };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;
export { oidc };
