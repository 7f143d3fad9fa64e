/**
 * The one place tokens are minted, for every grant (STYLE §3: issuance policy in one place,
 * every front door calls it). A grant decides WHO gets WHAT (client, user, scope); this file
 * decides what the tokens look like:
 *
 * - Access token: a JWT of RFC 9068 (`typ: at+jwt`) signed with the client's algorithm:
 *   iss, sub, aud, exp (the client's tokenExpirSec), iat, jti, client_id, scope, and for a
 *   user's token auth_time, sid (when the sign-in had one) and `gid`, the family id that
 *   revocation checks. `sub` is the account id; a client_credentials token's is
 *   `client:<client_id>`, which no account id can equal (ids are letters and digits; AS-20).
 *   `aud` is the client (or, for token exchange, the sub client): there is no resource
 *   registry, so a requested `resource` names nothing we could check (AS-19).
 * - ID token (OIDC Core §2, §3.1.3.6): iss, sub, aud, exp, iat, auth_time, nonce, at_hash,
 *   sid, and the claims of the granted scopes (claims.ts).
 * - Refresh token: 43 random characters, stored as a keyed hash, only for a user's grant of a
 *   client registered for the refresh_token grant (decided: the registration, not the
 *   offline_access scope, says whether a client refreshes; never for client_credentials, RFC
 *   6749 §4.4.3, nor for token exchange). Each lives refreshtokenExpirSec, within its family's
 *   absolute end (defaults.ts REFRESH_FAMILY_MAX_LIFETIME_SEC).
 * - Family (oauth_families): one per user authorization; client_credentials tokens have none,
 *   so they cost no database write (issue 12 bench).
 *
 * `issue` only builds; `save` writes the family and refresh token in the caller's transaction,
 * next to whatever the grant consumes (a code, a refresh token, a device code): all or nothing.
 */
import crypto from 'node:crypto';
import type { OAuthClient } from '../../clients/clients.repo.js';
import { randomHexId, randomString, type Secrets } from '../../platform/crypto.js';
import type { Db } from '../../platform/db.js';
import { ID_TOKEN_TTL_SEC, REFRESH_FAMILY_MAX_LIFETIME_SEC, REFRESH_TOKEN_LENGTH } from '../defaults.js';
import type { JwsAlg } from '../jwt.js';
import type { TokenResponse } from '../grants/types.js';
import type { FamilyRepo, NewOAuthFamily, OAuthFamily } from '../store/families.repo.js';
import type { NewOAuthRefreshToken, RefreshTokenRepo } from '../store/refresh-tokens.repo.js';
import { scopeSet, userClaims, type ClaimsAccount } from './claims.js';

const SEC = 1000;

/** The user a token is for, and the sign-in it comes from. */
export interface MintSubject {
  account: ClaimsAccount;
  /** ms: when the user signed in (OIDC `auth_time`) */
  authTime: number;
  sid?: string | null | undefined;
  nonce?: string | null | undefined;
}

export interface IssueInput {
  client: OAuthClient;
  /** the grant type, stored on the family and audited */
  grantType: string;
  /** the granted scope, space-separated */
  scope: string;
  /** null: the client itself (client_credentials) */
  subject: MintSubject | null;
  now: number;
  /** default: when `openid` was granted to a user */
  idToken?: boolean | undefined;
  /** default: a user's grant, the client registered for refresh_token */
  refreshToken?: boolean | undefined;
  /** RFC 8693 §4.1 actor: the client that exchanged the token */
  act?: { sub: string } | undefined;
  /** the family this one was derived from (token exchange, sub-client codes) */
  parentFamilyId?: string | null | undefined;
  /** the public client_id of the exchanging parent (the authorization record shows the chain) */
  actorClientId?: string | null | undefined;
  /** RFC 8693 §2.2.1 */
  issuedTokenType?: string | undefined;
}

/** What `issue` built: the answer, and the rows `save` writes. */
export interface Issued {
  response: TokenResponse;
  family?: NewOAuthFamily | undefined;
  refreshToken?: NewOAuthRefreshToken | undefined;
  /** the family's id, also the access token's `gid` */
  familyId?: string | undefined;
  /** the access token's jti and expiry (ms) */
  jti: string;
  expiresAt: number;
}

/** A user's access token needs a family; the client's own does not. */
export const CLIENT_SUB_PREFIX = 'client:';
export const clientSub = (clientId: string) => `${CLIENT_SUB_PREFIX}${clientId}`;

export const mayRefresh = (client: OAuthClient) => client.grantTypes.includes('refresh_token');

/** OIDC Core §3.1.3.6: base64url of the left half of SHA-256 of the access token (ES256 and RS256 both hash with SHA-256). */
export const atHash = (accessToken: string) => crypto.createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');

export interface MintDeps {
  sign(realmId: string, alg: JwsAlg, header: { typ: string }, payload: object): Promise<string>;
  issuer(realmId: string): string;
  families: Pick<FamilyRepo, 'insert'>;
  refreshTokens: Pick<RefreshTokenRepo, 'insert'>;
  secrets: Secrets;
}

export function createMint(deps: MintDeps) {
  const { secrets } = deps;
  const algOf = (client: OAuthClient): JwsAlg => (client.signingAlg === 'RS256' ? 'RS256' : 'ES256');
  const hashRefresh = (value: string) => secrets.hash('oauth-refresh', value);

  interface AccessInput {
    client: OAuthClient;
    scope: string;
    subject: MintSubject | null;
    familyId?: string | undefined;
    act?: { sub: string } | undefined;
    now: number;
  }

  async function accessToken(i: AccessInput): Promise<{ token: string; jti: string; expiresAt: number }> {
    const iat = Math.floor(i.now / SEC);
    const exp = iat + i.client.tokenExpirSec;
    // 128 random bits from a pre-filled pool: unique, and far cheaper than randomString on the
    // client_credentials path (a jti need not be secret, RFC 7519 §4.1.7)
    const jti = randomHexId();
    const s = i.subject;
    const payload: Record<string, unknown> = {
      iss: deps.issuer(i.client.realmId),
      sub: s ? s.account.id : clientSub(i.client.clientId),
      aud: i.client.clientId,
      exp,
      iat,
      jti,
      client_id: i.client.clientId,
    };
    if (i.scope) payload.scope = i.scope;
    if (s) payload.auth_time = Math.floor(s.authTime / SEC);
    if (s?.sid) payload.sid = s.sid;
    if (i.familyId) payload.gid = i.familyId;
    if (i.act) payload.act = i.act;
    const token = await deps.sign(i.client.realmId, algOf(i.client), { typ: 'at+jwt' }, payload);
    return { token, jti, expiresAt: exp * SEC };
  }

  async function idToken(client: OAuthClient, s: MintSubject, scope: string, accessTokenValue: string, now: number): Promise<string> {
    const iat = Math.floor(now / SEC);
    const payload: Record<string, unknown> = {
      iss: deps.issuer(client.realmId),
      sub: s.account.id,
      aud: client.clientId,
      exp: iat + ID_TOKEN_TTL_SEC,
      iat,
      auth_time: Math.floor(s.authTime / SEC),
      at_hash: atHash(accessTokenValue),
    };
    if (s.nonce) payload.nonce = s.nonce;
    if (s.sid) payload.sid = s.sid;
    Object.assign(payload, userClaims(s.account, scopeSet(scope)));
    return deps.sign(client.realmId, algOf(client), { typ: 'JWT' }, payload);
  }

  function newRefreshToken(familyId: string, realmId: string, lifetimeSec: number, familyEnd: number, now: number) {
    const value = randomString(REFRESH_TOKEN_LENGTH);
    const row: NewOAuthRefreshToken = {
      token_hash: hashRefresh(value),
      family_id: familyId,
      realm_id: realmId,
      created_at: now,
      expires_at: Math.min(now + lifetimeSec * SEC, familyEnd),
      used_at: null,
    };
    return { value, row };
  }

  /** Tokens for a new authorization (code, device, exchange, client_credentials). */
  async function issue(i: IssueInput): Promise<Issued> {
    const { client, subject, now } = i;
    const withRefresh = subject !== null && (i.refreshToken ?? mayRefresh(client));
    const withId = subject !== null && (i.idToken ?? scopeSet(i.scope).has('openid'));
    let family: NewOAuthFamily | undefined;
    if (subject) {
      const end = withRefresh
        ? now + Math.max(client.refreshTokenExpirSec, REFRESH_FAMILY_MAX_LIFETIME_SEC) * SEC
        : // no refresh token: the family only needs to outlive its access token
          now + client.tokenExpirSec * SEC;
      family = {
        id: randomString(32),
        realm_id: client.realmId,
        client_ref: client.id,
        account_id: subject.account.id,
        grant_type: i.grantType,
        scope: i.scope,
        auth_time: subject.authTime,
        sid: subject.sid ?? null,
        parent_id: i.parentFamilyId ?? null,
        actor_client_id: i.actorClientId ?? null,
        created_at: now,
        expires_at: end,
        revoked_at: null,
        revoke_reason: null,
      };
    }
    const at = await accessToken({ client, scope: i.scope, subject, familyId: family?.id, act: i.act, now });
    const response: TokenResponse = { access_token: at.token, token_type: 'Bearer', expires_in: client.tokenExpirSec };
    if (i.scope) response.scope = i.scope;
    if (i.issuedTokenType) response.issued_token_type = i.issuedTokenType;
    let refreshRow: NewOAuthRefreshToken | undefined;
    if (withRefresh && family) {
      const rt = newRefreshToken(family.id, client.realmId, client.refreshTokenExpirSec, family.expires_at, now);
      response.refresh_token = rt.value;
      refreshRow = rt.row;
    }
    if (withId && subject) response.id_token = await idToken(client, subject, i.scope, at.token, now);
    return { response, family, refreshToken: refreshRow, familyId: family?.id, jti: at.jti, expiresAt: at.expiresAt };
  }

  /**
   * Tokens from an existing family (refresh_token grant): a new access token (and ID token when
   * `openid` is in `scope`, OIDC Core §12.2), and with `rotate` a new refresh token whose row
   * `save` inserts. Without rotation the caller answers the presented refresh token again.
   */
  async function refresh(family: OAuthFamily, client: OAuthClient, subject: MintSubject, scope: string, rotate: boolean, now: number): Promise<Issued> {
    const at = await accessToken({ client, scope, subject, familyId: family.id, now });
    const response: TokenResponse = { access_token: at.token, token_type: 'Bearer', expires_in: client.tokenExpirSec, scope };
    let refreshRow: NewOAuthRefreshToken | undefined;
    if (rotate) {
      const rt = newRefreshToken(family.id, client.realmId, client.refreshTokenExpirSec, Number(family.expires_at), now);
      response.refresh_token = rt.value;
      refreshRow = rt.row;
    }
    if (scopeSet(scope).has('openid')) response.id_token = await idToken(client, { ...subject, nonce: null }, scope, at.token, now);
    return { response, refreshToken: refreshRow, familyId: family.id, jti: at.jti, expiresAt: at.expiresAt };
  }

  /** Writes what `issue`/`refresh` built: the family first (the refresh token points at it). */
  async function save(issued: Issued, trx?: Db): Promise<void> {
    if (issued.family) await deps.families.insert(issued.family, trx);
    if (issued.refreshToken) await deps.refreshTokens.insert(issued.refreshToken, trx);
  }

  return { issue, refresh, save, accessToken, hashRefresh };
}

export type Mint = ReturnType<typeof createMint>;
