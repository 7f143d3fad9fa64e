/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2–3; AS-27, AS-03), as a list
 * of steps. The browser's SSO session ends, and it is sent on only to a post_logout_redirect_uri
 * the client registered (exact string match). A request proven to come from the client (a
 * valid id_token_hint naming the signed-in user) is done at once; any other is confirmed by
 * the user first on our page, whose form carries a sealed token bound to that SSO session
 * (no cross-site sign-out). An invalid hint is refused: nothing ends, nothing redirects.
 */
import type { OAuthClient } from '../../clients/clients.repo.js';
import { CHALLENGE_TTL_MS } from '../authorize/challenge.js';
import type { AuthorizeService } from '../authorize/authorize.service.js';
import { paramsOf } from '../checks/params.js';
import { STATE_MAX } from '../checks/check-state-nonce.js';
import { JwtError } from '../jwt.js';

export type EndSessionOutcome =
  | { kind: 'page'; status: 400 | 404; error: string; description: string }
  | { kind: 'confirm'; confirm: string; redirectAfter: string | undefined; realmName: string }
  | { kind: 'done'; location: string | undefined };

export interface EndSessionDeps {
  realmName(realmId: string): Promise<string | undefined>;
  authorize: AuthorizeService;
  verifyIdToken(realmId: string, jwt: string): Promise<Record<string, unknown>>;
}

export interface EndSessionInput {
  realmId: string;
  raw: unknown;
  ssoToken: string | undefined;
  now: number;
}

const page = (error: string, description: string): EndSessionOutcome => ({ kind: 'page', status: 400, error, description });

function withState(uri: string, state: string | undefined): string {
  if (state === undefined) return uri;
  return `${uri}${uri.includes('?') ? '&' : '?'}${new URLSearchParams({ state }).toString()}`;
}

/**
 * The hint's claims when we signed it for this realm. RP-Initiated Logout §2: the OP "SHOULD
 * accept ID Tokens ... even when the exp time has passed": verifyIdToken is called with
 * allowExpired, every other check of oauth/jwt.ts still applies.
 */
async function verifiedHint(deps: EndSessionDeps, realmId: string, hint: string): Promise<Record<string, unknown> | undefined> {
  try {
    return await deps.verifyIdToken(realmId, hint);
  } catch (err) {
    if (err instanceof JwtError) return undefined;
    throw err;
  }
}

const audienceOf = (claims: Record<string, unknown>): string | undefined =>
  typeof claims.azp === 'string' ? claims.azp : typeof claims.aud === 'string' ? claims.aud : Array.isArray(claims.aud) ? String(claims.aud[0]) : undefined;

export async function handleEndSession(input: EndSessionInput, deps: EndSessionDeps): Promise<EndSessionOutcome> {
  const { realmId, now } = input;
  const az = deps.authorize;
  const params = paramsOf(input.raw);

  // 1. The realm exists.
  const realmName = await deps.realmName(realmId);
  if (realmName === undefined) return { kind: 'page', status: 404, error: 'not_found', description: 'unknown realm' };

  // 2. Single parameters (RFC 6749 §3.1 applies to this endpoint's parameters too).
  let hint, clientId, redirectUri, state;
  try {
    hint = params.get('id_token_hint');
    clientId = params.get('client_id');
    redirectUri = params.get('post_logout_redirect_uri');
    state = params.get('state');
  } catch {
    return page('invalid_request', 'a parameter is repeated');
  }
  if (state !== undefined && state.length > STATE_MAX) return page('invalid_request', 'state is too long');

  // 3. The hint, when sent, must be an ID token we issued in this realm; anything else is refused.
  const claims = hint === undefined ? undefined : await verifiedHint(deps, realmId, hint);
  if (hint !== undefined && !claims) return page('invalid_request', 'id_token_hint is not a valid ID token of this issuer');

  // 4. The client: the hint's audience, or client_id; both must agree (RP-Initiated Logout §2).
  const hintClient = claims ? audienceOf(claims) : undefined;
  if (clientId && hintClient && clientId !== hintClient) return page('invalid_request', 'client_id does not match the id_token_hint');
  const named = clientId ?? hintClient;
  let client: OAuthClient | undefined;
  if (named) {
    client = await az.findClient(realmId, named);
    if (!client) return page('invalid_request', 'unknown client_id');
  }

  // 5. post_logout_redirect_uri: exactly one the client registered (AS-27), else no redirect at all.
  if (redirectUri !== undefined) {
    if (!client) return page('invalid_request', 'post_logout_redirect_uri needs client_id or id_token_hint');
    if (!client.postLogoutRedirectUris.includes(redirectUri)) return page('invalid_request', 'post_logout_redirect_uri is not registered for this client');
  }

  // 6. The browser's session. A proven request for that very user ends it now; any other is confirmed first.
  const sso = await az.ssoOf(realmId, input.ssoToken);
  if (claims && (!sso || sso.account.id === claims.sub)) {
    if (sso) await az.revokeSso(sso.session);
    return { kind: 'done', location: redirectUri === undefined ? undefined : withState(redirectUri, state) };
  }
  const confirm = az.challenges.seal({ typ: 'oauth-logout', realmId, sid: sso?.session.id ?? null, redirect: redirectUri, state, exp: now + CHALLENGE_TTL_MS });
  return { kind: 'confirm', confirm, redirectAfter: redirectUri, realmName };
}

/** The confirmation form's POST: ends the session it was shown to, then goes where it said. */
export async function handleEndSessionConfirm(
  input: { realmId: string; confirm: string; ssoToken: string | undefined; now: number },
  deps: EndSessionDeps,
): Promise<EndSessionOutcome> {
  const c = deps.authorize.challenges.open(input.confirm, 'oauth-logout', input.now);
  if (!c || c.realmId !== input.realmId) return page('invalid_request', 'the sign-out confirmation has expired; start again');
  const sso = await deps.authorize.ssoOf(input.realmId, input.ssoToken);
  if (sso && c.sid === sso.session.id) await deps.authorize.revokeSso(sso.session);
  return { kind: 'done', location: c.redirect === undefined ? undefined : withState(c.redirect, c.state) };
}
