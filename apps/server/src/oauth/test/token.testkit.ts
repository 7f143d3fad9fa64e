/**
 * Fixtures of the token-side suites (token, userinfo, introspection, revocation): form posts
 * with client authentication, authorization codes written through repos.oauthCodes (the
 * authorize endpoint's suites drive the browser flow; these start at the code), and a user's
 * tokens obtained through a real code redemption.
 */
import type { OAuthClient } from '../../clients/clients.repo.js';
import { randomString } from '../../platform/crypto.js';
import type { Harness } from '../../test/harness.js';
import { randomIp, type TestAccount } from '../../test/kit.js';
import { makeClient } from './authorize.testkit.js';

export { makeClient, pkcePair } from './authorize.testkit.js';

/** makeClient's secret */
export const SECRET = 'secret';

/** RFC 6749 §2.3.1: each part form-urlencoded, then base64. */
export const basic = (clientId: string, secret = SECRET) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export interface FormAnswer {
  status: number;
  body: Record<string, any>;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface PostOptions {
  /** authenticate as this client with client_secret_basic */
  client?: Pick<OAuthClient, 'clientId'>;
  secret?: string;
  headers?: Record<string, string>;
  ip?: string;
}

/** A form POST (a string body is sent as it is: repeated parameters). */
export async function postForm(h: Harness, url: string, form: Record<string, string> | string, o: PostOptions = {}): Promise<FormAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...o.headers };
  if (o.client) headers.authorization = basic(o.client.clientId, o.secret);
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers,
    payload: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
    remoteAddress: o.ip ?? randomIp(),
  });
  let body: Record<string, any> = {};
  if (String(res.headers['content-type'] ?? '').includes('json')) body = res.json();
  return { status: res.statusCode, body, headers: res.headers, text: res.body };
}

export const tokenUrl = (realmId: string) => `/realms/${realmId}/oauth/token`;

export const postToken = (h: Harness, realmId: string, form: Record<string, string> | string, o?: PostOptions) => postForm(h, tokenUrl(realmId), form, o);

export interface CodeOptions {
  redirectUri?: string;
  challenge?: string | null;
  scope?: string;
  nonce?: string | null;
  parentFamilyId?: string | null;
  sid?: string | null;
}

/** An authorization code as the authorize endpoint stores it (hash only), for `client` and `account`. */
export async function newCode(h: Harness, client: OAuthClient, account: Pick<TestAccount, 'id'>, o: CodeOptions = {}): Promise<string> {
  const code = randomString(43);
  const now = h.clock.now();
  await h.ctx.repos.oauthCodes.insert({
    code_hash: h.ctx.secrets.hash('oauth-code', code),
    realm_id: client.realmId,
    client_ref: client.id,
    account_id: account.id,
    redirect_uri: o.redirectUri ?? client.redirectUris[0]!,
    scope: o.scope ?? 'openid profile offline_access',
    nonce: o.nonce === undefined ? 'n-1' : o.nonce,
    code_challenge: o.challenge ?? null,
    auth_time: now - 1000,
    sid: o.sid ?? null,
    parent_family_id: o.parentFamilyId ?? null,
    created_at: now,
    expires_at: now + 60_000,
    used_at: null,
    family_id: null,
    response_sealed: null,
  });
  return code;
}

/** The token request redeeming `code` as `client` (client_secret_basic unless `form` says otherwise). */
export function redeem(h: Harness, client: OAuthClient, code: string, form: Record<string, string> = {}, o: PostOptions = {}) {
  return postToken(h, client.realmId, { grant_type: 'authorization_code', code, redirect_uri: client.redirectUris[0]!, ...form }, { client, ...o });
}

/** A user's tokens for `client` through a code redemption (must succeed). */
export async function userTokens(h: Harness, client: OAuthClient, account: Pick<TestAccount, 'id'>, o: CodeOptions = {}) {
  const code = await newCode(h, client, account, o);
  const res = await redeem(h, client, code);
  if (res.status !== 200) throw new Error(`redemption failed: ${res.status} ${res.text}`);
  return res.body as { access_token: string; refresh_token?: string; id_token?: string; scope: string; expires_in: number; token_type: string };
}

export const refresh = (h: Harness, client: OAuthClient, refreshToken: string, form: Record<string, string> = {}, o: PostOptions = {}) =>
  postToken(h, client.realmId, { grant_type: 'refresh_token', refresh_token: refreshToken, ...form }, { client, ...o });

export const introspect = (h: Harness, client: OAuthClient, token: string, o: PostOptions = {}) =>
  postForm(h, `/realms/${client.realmId}/oauth/introspect`, { token }, { client, ...o });

export const revoke = (h: Harness, client: OAuthClient, token: string, o: PostOptions = {}) =>
  postForm(h, `/realms/${client.realmId}/oauth/revoke`, { token }, { client, ...o });

/** The payload of a JWT, unverified (for assertions on claims). */
export function claimsOf(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, any>;
}

/** A confidential client that may use client_credentials. */
export const serviceClient = (h: Harness, realmId: string, patch: Partial<OAuthClient> = {}) =>
  makeClient(h, realmId, { grantTypes: ['client_credentials'], scopes: ['profile', 'email'], ...patch });
