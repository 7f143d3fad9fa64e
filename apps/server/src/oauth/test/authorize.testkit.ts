/**
 * Fixtures of the authorization endpoint suites: clients written through repos.clients,
 * authorize URLs, raw requests with cookies, a browser SSO session obtained the way a browser
 * gets one (authorize → console sign-in → interaction/login), and an ID token hint.
 */
import crypto from 'node:crypto';
import type { OAuthClient } from '../../clients/clients.repo.js';
import { newId, randomString } from '../../platform/crypto.js';
import type { Harness } from '../../test/harness.js';
import { as, issueSession, randomIp, type TestAccount } from '../../test/kit.js';
import { SSO_COOKIE_NAME } from '../defaults.js';

export async function makeClient(h: Harness, realmId: string, patch: Partial<OAuthClient> = {}): Promise<OAuthClient> {
  return h.ctx.repos.clients.insert(
    {
      id: newId(),
      realmId,
      clientId: randomString(32),
      parentId: null,
      ownerAccountId: null,
      name: `app ${randomString(6)}`,
      description: 'a client for tests',
      secretHash: h.ctx.secrets.hash('client-secret', 'secret'),
      tokenEndpointAuthMethod: 'client_secret_basic',
      jwks: null,
      redirectUris: ['https://app.test/cb'],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', 'email', 'phone', 'offline_access'],
      tokenExpirSec: 3600,
      refreshTokenExpirSec: 86400,
      refreshTokenRecreate: true,
      authCodeMultiUse: false,
      consentRequired: false,
      signingAlg: 'ES256',
      loginTips: '',
      loginUrl: '',
      registUrl: '',
      sourceRanges: [],
      allowAuthCode: false,
      allowToken: false,
      disabled: false,
      ...patch,
    },
    h.clock.now(),
  );
}

export const authorizePath = (realmId: string, params: Record<string, string>) =>
  `/realms/${realmId}/oauth/authorize?${new URLSearchParams(params).toString()}`;

/** A valid S256 pair (RFC 7636 §4.1–4.2). */
export function pkcePair() {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

/** The usual request of a confidential client: code, openid, state, nonce. */
export const codeRequest = (client: OAuthClient, extra: Record<string, string> = {}): Record<string, string> => ({
  response_type: 'code',
  client_id: client.clientId,
  redirect_uri: client.redirectUris[0]!,
  scope: 'openid profile',
  state: 'st-123',
  nonce: 'n-456',
  ...extra,
});

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  location: string | undefined;
  cookies: { name: string; value: string; path?: string; httpOnly?: boolean; secure?: boolean; sameSite?: string; maxAge?: number }[];
}

/** A raw request (no envelope parsing), with the SSO cookie when given. */
export async function raw(
  h: Harness,
  method: 'GET' | 'POST',
  url: string,
  o: { sso?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Raw> {
  const headers: Record<string, string> = { 'accept-language': 'en', ...o.headers };
  if (o.sso) headers.cookie = `${SSO_COOKIE_NAME}=${o.sso}`;
  if (o.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await h.app.inject({
    method,
    url,
    headers,
    remoteAddress: randomIp(),
    ...(o.form ? { payload: new URLSearchParams(o.form).toString() } : {}),
  });
  const loc = res.headers.location;
  return {
    status: res.statusCode,
    headers: res.headers,
    text: res.body,
    location: typeof loc === 'string' ? loc : undefined,
    cookies: res.cookies as Raw['cookies'],
  };
}

/** The query of a redirect's Location as an object (one value per name). */
export function queryOf(location: string | undefined): Record<string, string> {
  if (!location) throw new Error('no Location');
  return Object.fromEntries(new URL(location, 'http://base.invalid').searchParams);
}

/** The challenge of a redirect to the console's /user/loginSSO. */
export function challengeOf(location: string | undefined): string {
  const url = new URL(location ?? '', 'http://base.invalid');
  if (url.pathname !== '/user/loginSSO') throw new Error(`not the sign-in page: ${location}`);
  return url.searchParams.get('challenge') ?? '';
}

/**
 * Runs authorize until the console's sign-in, then the console's interaction/login with a
 * console session of `user`: answers the interaction's answer and the SSO cookie it set.
 */
export async function signInThroughConsole(h: Harness, client: OAuthClient, user: TestAccount, params: Record<string, string> = codeRequest(client)) {
  const first = await raw(h, 'GET', authorizePath(client.realmId, params));
  const challenge = challengeOf(first.location);
  const consoleToken = await issueSession(h, user);
  const res = await as(h, consoleToken).post('/api/users/oauth/interaction/login', { challenge });
  const sso = res.cookies.find((c) => c.name === SSO_COOKIE_NAME);
  return { res, sso: sso?.value, ssoCookie: sso, consoleToken, challenge };
}

/** An ID token of the realm as the token endpoint mints them (typ JWT, signed by the realm's key). */
export async function idToken(h: Harness, realmId: string, claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(h.clock.now() / 1000);
  return h.ctx.services.oauthKeys.sign(
    realmId,
    'ES256',
    { typ: 'JWT' },
    { iss: h.ctx.services.oauthKeys.issuer(realmId), iat: now, exp: now + 3600, ...claims },
  );
}
