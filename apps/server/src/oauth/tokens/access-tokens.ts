/**
 * Is this access token good, now, in this realm? (RFC 9068 §4 validation, plus our own state.)
 *
 * 1. signature, `typ: at+jwt` (an ID token is refused, AS-23), `iss` = this realm's issuer,
 *    `exp`, `nbf`/`iat` within the leeway: the keys service (oauth/jwt.ts rules, AS-24);
 * 2. one read for everything else (families.repo.ts tokenState): the client exists and is not
 *    disabled, the `jti` was not revoked on its own (RFC 7009), the family (`gid`) exists, is of
 *    this client and is not revoked (code reuse, refresh replay, consent or password reset,
 *    parent grant revoked), and the account exists in the realm and is enabled.
 *
 * A token of another realm fails at step 1 (other issuer, other keys). Nothing here throws for a
 * bad token: the caller gets the reason, which it never shows beyond "invalid_token".
 */
import { JwtError } from '../jwt.js';
import type { FamilyRepo } from '../store/families.repo.js';
import type { ClaimsAccount } from './claims.js';
import { CLIENT_SUB_PREFIX } from './mint.js';

export interface AccessClaims {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
  jti: string;
  client_id: string;
  scope: string;
  auth_time?: number;
  sid?: string;
  gid?: string;
  act?: { sub: string };
}

export type TokenCheck =
  | {
      ok: true;
      claims: AccessClaims;
      /** the client's row id */
      clientRef: string;
      /** null: a client_credentials token */
      account: ClaimsAccount | null;
    }
  | { ok: false; reason: string };

export interface AccessTokenDeps {
  verify(realmId: string, jwt: string, opts: { typ: string }): Promise<Record<string, unknown>>;
  families: Pick<FamilyRepo, 'tokenState'>;
  now(): number;
}

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

function claimsOf(p: Record<string, unknown>): AccessClaims | undefined {
  if (!str(p.sub) || !str(p.client_id) || !str(p.jti) || typeof p.exp !== 'number' || typeof p.iat !== 'number') return undefined;
  if (p.scope !== undefined && typeof p.scope !== 'string') return undefined;
  if (p.gid !== undefined && !str(p.gid)) return undefined;
  return { ...(p as unknown as AccessClaims), scope: (p.scope as string | undefined) ?? '' };
}

export function createAccessTokenValidator(deps: AccessTokenDeps) {
  return async function validateAccessToken(realmId: string, token: string): Promise<TokenCheck> {
    let payload: Record<string, unknown>;
    try {
      payload = await deps.verify(realmId, token, { typ: 'at+jwt' });
    } catch (err) {
      if (err instanceof JwtError) return { ok: false, reason: `jwt_${err.reason}` };
      throw err;
    }
    const claims = claimsOf(payload);
    if (!claims) return { ok: false, reason: 'claims' };
    const isClientToken = claims.sub.startsWith(CLIENT_SUB_PREFIX);
    // every user token belongs to a family; a client's own never does
    if (!isClientToken && !claims.gid) return { ok: false, reason: 'claims' };
    const st = await deps.families.tokenState(realmId, claims.client_id, claims.gid ?? null, claims.jti, isClientToken ? null : claims.sub);
    if (!st) return { ok: false, reason: 'client_gone' };
    if (st.client_disabled) return { ok: false, reason: 'client_disabled' };
    if (st.jti_revoked !== null) return { ok: false, reason: 'revoked' };
    if (isClientToken) {
      if (claims.sub !== `${CLIENT_SUB_PREFIX}${claims.client_id}` || claims.gid) return { ok: false, reason: 'claims' };
      return { ok: true, claims, clientRef: st.client_ref, account: null };
    }
    if (st.family_realm !== realmId || st.family_client !== st.client_ref) return { ok: false, reason: 'family_gone' };
    if (st.family_revoked !== null) return { ok: false, reason: 'family_revoked' };
    if (st.account_id === null || st.account_realm !== realmId) return { ok: false, reason: 'account_gone' };
    if (st.account_disabled) return { ok: false, reason: 'account_disabled' };
    const account: ClaimsAccount = {
      id: st.account_id,
      username: st.username ?? '',
      email: st.email,
      phone: st.phone,
      updated_at: Number(st.updated_at ?? 0),
    };
    return { ok: true, claims, clientRef: st.client_ref, account };
  };
}

export type ValidateAccessToken = ReturnType<typeof createAccessTokenValidator>;

/**
 * The realm a token claims to come from (its `iss` under our public URL), read WITHOUT
 * verifying: only to choose which realm's keys verify it. Callers verify right after.
 */
export function realmClaimedBy(token: string, publicUrl: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1]!.length > 8192) return undefined;
  let iss: unknown;
  try {
    iss = (JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { iss?: unknown }).iss;
  } catch {
    return undefined;
  }
  const prefix = `${publicUrl.replace(/\/+$/, '')}/realms/`;
  if (typeof iss !== 'string' || !iss.startsWith(prefix)) return undefined;
  const realmId = iss.slice(prefix.length);
  return /^[A-Za-z0-9_-]{1,64}$/.test(realmId) ? realmId : undefined;
}
