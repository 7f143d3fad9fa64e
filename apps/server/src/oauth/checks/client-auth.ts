/**
 * Client authentication at the token, introspection, revocation and device endpoints
 * (RFC 6749 §2.3, OIDC Core §9). One method per request (§2.3: "MUST NOT use more than one"):
 *   - client_secret_basic: `Authorization: Basic`, id and secret each form-urlencoded before
 *     base64 (§2.3.1), so `+` is a space and `%3A` a colon;
 *   - client_secret_post: client_id and client_secret in the body;
 *   - private_key_jwt (RFC 7523 §2.2, §3): client_assertion_type jwt-bearer, a JWT with
 *     iss = sub = client_id, aud = the token endpoint (or the issuer, or the endpoint called),
 *     exp, a single-use jti, signed by a key of the client's registered JWKS in that key's own
 *     algorithm — never a key the assertion carries (oauth/jwt.ts rules, AS-24);
 *   - none: a public client names itself (client_id only); only where the endpoint allows it.
 * The two secret methods are interchangeable for a client registered with either: both present
 * the same secret, and relying-party libraries pick one on their own. A secret is checked with
 * one HMAC (services.clients.verifySecret), never a password hash (issue 12 bench); once a
 * secret has matched, the same text is recognised by a constant-time compare for as long as the
 * client object it matched holds (see `secretMatches`).
 *
 * Failures are one answer, 401 invalid_client (§5.2), with `WWW-Authenticate: Basic` when the
 * client tried Basic. Brute force (AS-13): failures per client are counted in the shared
 * throttle store (database or Redis: every instance sees them) under CLIENT_AUTH_THROTTLE; a
 * blocked client is refused before its secret is looked at. The happy path writes nothing: a
 * block learnt from the store is kept in this process until it ends.
 */
import crypto from 'node:crypto';
import type { OAuthClient } from '../../clients/clients.repo.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import type { ThrottleStore } from '../../auth/throttle/store.js';
import { CLIENT_ASSERTION_MAX_LIFETIME_SEC, CLIENT_AUTH_THROTTLE } from '../defaults.js';
import { InvalidClient, InvalidRequest, OAuthError } from '../errors.js';
import { JwtError, verifyJwt } from '../jwt.js';
import { assertionKeys } from './client-jwks.js';

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

export interface ClientAuthRequest {
  realmId: string;
  /** the Authorization header, if any */
  authorization: string | undefined;
  /** the form body (each parameter once) */
  params: Readonly<Record<string, string>>;
  /** the URL of the endpoint called (an accepted assertion audience) */
  endpointUrl: string;
}

export interface AuthenticatedClient {
  client: OAuthClient;
  method: ClientAuthMethod;
}

/** 404 for a realm that does not exist, in the RFC shape. */
export class UnknownRealm extends OAuthError {
  constructor() {
    super('invalid_request', 'unknown realm', 404);
  }
}

export interface ClientAuthDeps {
  findClient(realmId: string, clientId: string): Promise<OAuthClient | undefined>;
  verifySecret(client: Pick<OAuthClient, 'secretHash'>, presented: string): boolean;
  realmExists(realmId: string): Promise<boolean>;
  /** records a used assertion id; false when it was used before */
  useAssertionId(realmId: string, idHash: string, expiresAt: number): Promise<boolean>;
  throttle: ThrottleStore;
  secrets: Secrets;
  clock: Clock;
  issuer(realmId: string): string;
}

interface Presented {
  method: ClientAuthMethod;
  clientId: string;
  secret?: string | undefined;
  assertion?: string | undefined;
  basic: boolean;
}

function formDecode(s: string): string {
  // generated ids and secrets are letters and digits: nothing to decode (the common case)
  if (!s.includes('%') && !s.includes('+')) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw new InvalidClient('malformed Basic credentials', { 'WWW-Authenticate': 'Basic' });
  }
}

/** Which method the request uses, and who it says it is (nothing checked yet). */
function presented(req: ClientAuthRequest): Presented {
  const p = req.params;
  const scheme = req.authorization ? /^Basic\s+/i.exec(req.authorization) : null;
  const basicHeader = scheme ? req.authorization!.slice(scheme[0].length) : undefined;
  const used =
    Number(basicHeader !== undefined) +
    Number(p.client_secret !== undefined) +
    Number(p.client_assertion !== undefined || p.client_assertion_type !== undefined);
  if (used > 1) throw new InvalidRequest('use exactly one client authentication method (RFC 6749 §2.3)');
  if (basicHeader !== undefined) {
    const decoded = Buffer.from(basicHeader.trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new InvalidClient('malformed Basic credentials', { 'WWW-Authenticate': 'Basic' });
    const clientId = formDecode(decoded.slice(0, colon));
    if (p.client_id !== undefined && p.client_id !== clientId) throw new InvalidRequest('client_id differs from the Basic credentials');
    return { method: 'client_secret_basic', clientId, secret: formDecode(decoded.slice(colon + 1)), basic: true };
  }
  if (p.client_assertion !== undefined || p.client_assertion_type !== undefined) {
    if (p.client_assertion_type !== JWT_BEARER_ASSERTION || !p.client_assertion) throw new InvalidClient('unsupported client assertion');
    const iss = unverifiedIssuer(p.client_assertion);
    if (!iss || (p.client_id !== undefined && p.client_id !== iss)) throw new InvalidClient('client assertion does not name the client');
    return { method: 'private_key_jwt', clientId: iss, assertion: p.client_assertion, basic: false };
  }
  if (!p.client_id) throw new InvalidClient('client authentication required');
  if (p.client_secret !== undefined) return { method: 'client_secret_post', clientId: p.client_id, secret: p.client_secret, basic: false };
  return { method: 'none', clientId: p.client_id, basic: false };
}

/** The assertion's `iss`, read before verification only to find the client whose keys verify it. */
function unverifiedIssuer(jwt: string): string | undefined {
  const part = jwt.split('.')[1];
  if (!part || part.length > 8192) return undefined;
  try {
    const iss = (JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    return typeof iss === 'string' && iss.length > 0 && iss.length <= 128 ? iss : undefined;
  } catch {
    return undefined;
  }
}

const SECRET_METHODS: readonly string[] = ['client_secret_basic', 'client_secret_post'];

export function createClientAuth(deps: ClientAuthDeps) {
  const { clock, secrets } = deps;
  const policy = { ...CLIENT_AUTH_THROTTLE };
  /** this process's knowledge of blocked clients: client row id → blocked until (ms) */
  const blocked = new Map<string, number>();
  /**
   * The secret text that last matched each client object. A confidential client presents the
   * same secret on every call; re-hashing it each time was a measurable share of a token
   * (issue 12 bench). Keyed by the object, not the client id: the client cache hands out one
   * frozen object per client only while the auth epoch holds (clients/client-cache.ts), and any
   * change to the row — disabled, secret regenerated, deleted — moves the epoch, so the next
   * request gets a new object with nothing remembered. Only the exact text is recognised, in
   * constant time (the length is not hidden: generated secrets all have one length, SPEC §9);
   * anything else goes through the hash as before, so a wrong secret costs what it always did.
   */
  const matchedSecrets = new WeakMap<OAuthClient, Buffer>();
  function secretMatches(client: OAuthClient, presented: string): boolean {
    const known = matchedSecrets.get(client);
    if (known !== undefined) {
      const given = Buffer.from(presented);
      if (given.length === known.length && crypto.timingSafeEqual(given, known)) return true;
    }
    if (!deps.verifySecret(client, presented)) return false;
    matchedSecrets.set(client, Buffer.from(presented));
    return true;
  }
  const keyOf = (c: OAuthClient) => ({ realmId: c.realmId, kind: 'account' as const, keyHash: secrets.hash('throttle-client', c.id) });

  function refusal(p: Presented, description: string, extra: Record<string, string> = {}): InvalidClient {
    return new InvalidClient(description, { ...(p.basic ? { 'WWW-Authenticate': `Basic realm="oauth"` } : {}), ...extra });
  }

  /** Counts a failure for `client` and answers the refusal (with Retry-After once it blocks). */
  async function failed(p: Presented, client: OAuthClient): Promise<never> {
    const now = clock.now();
    const [r] = await deps.throttle.reserve([{ key: keyOf(client), policy }], now);
    const until = r?.blockedUntil ?? 0;
    if (until > now) {
      if (blocked.size > 10_000) blocked.clear();
      blocked.set(client.id, until);
    }
    throw refusal(p, 'client authentication failed');
  }

  async function checkAssertion(p: Presented, client: OAuthClient, req: ClientAuthRequest): Promise<boolean> {
    if (!client.jwks || !p.assertion) return false;
    const now = clock.now();
    const issuer = deps.issuer(req.realmId);
    let payload: Record<string, unknown>;
    try {
      const keys = assertionKeys(client.jwks, p.assertion);
      // typ is not defined for client assertions (RFC 7523): not checked; iss = client_id
      payload = verifyJwt(p.assertion, keys.list, { typ: null, issuer: client.clientId, now, kidOptional: keys.kidOptional }).payload;
    } catch (err) {
      if (err instanceof JwtError) return false;
      throw err;
    }
    const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const audiences = [`${issuer}/oauth/token`, issuer, req.endpointUrl];
    if (payload.sub !== client.clientId || !aud.some((a) => typeof a === 'string' && audiences.includes(a))) return false;
    const exp = payload.exp as number;
    if (exp * 1000 > now + CLIENT_ASSERTION_MAX_LIFETIME_SEC * 1000) return false;
    if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256) return false;
    // RFC 7523 §3 (7): a jti seen before is a replay; kept until the assertion expires
    return deps.useAssertionId(req.realmId, secrets.hash('client-assertion', `${client.id}\0${payload.jti}`), exp * 1000);
  }

  /**
   * The client the request authenticates, or OAuthError: invalid_client (401), invalid_request
   * (two methods), UnknownRealm (404). `allowPublic`: a public client naming itself is enough.
   */
  async function authenticate(req: ClientAuthRequest, opts: { allowPublic: boolean }): Promise<AuthenticatedClient> {
    const p = presented(req);
    const client = p.clientId.length <= 128 ? await deps.findClient(req.realmId, p.clientId) : undefined;
    if (!client) {
      if (!(await deps.realmExists(req.realmId))) throw new UnknownRealm();
      // the same work as a wrong secret: no timing difference between unknown and known clients
      if (p.secret !== undefined) deps.verifySecret({ secretHash: null }, p.secret);
      throw refusal(p, 'client authentication failed');
    }
    if (client.disabled) throw refusal(p, 'client authentication failed');
    const now = clock.now();
    const until = blocked.get(client.id);
    if (until !== undefined) {
      if (until > now) throw refusal(p, 'too many failed client authentications', { 'Retry-After': String(Math.ceil((until - now) / 1000)) });
      blocked.delete(client.id);
    }
    const registered = client.tokenEndpointAuthMethod;
    let ok: boolean;
    if (p.method === 'none') {
      // a confidential client must authenticate: naming itself is no proof
      if (registered !== 'none' || !opts.allowPublic) throw refusal(p, 'client authentication required');
      ok = true;
    } else if (p.method === 'private_key_jwt') {
      ok = registered === 'private_key_jwt' && (await checkAssertion(p, client, req));
    } else {
      ok = SECRET_METHODS.includes(registered) && secretMatches(client, p.secret ?? '');
    }
    if (!ok) return failed(p, client);
    if (until !== undefined) await deps.throttle.settle([keyOf(client)], []);
    return { client, method: p.method };
  }

  return { authenticate };
}

export type ClientAuth = ReturnType<typeof createClientAuth>;
