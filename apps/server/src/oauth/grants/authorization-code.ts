/**
 * The authorization code grant at the token endpoint (RFC 6749 §4.1.3, OIDC Core §3.1.3):
 *
 * 1. read the code: unknown, of another realm, or expired → invalid_grant; already used → below;
 * 2. the code's client is the caller; redirect_uri is the one of the authorization request,
 *    exactly (AS-08, redirectMatches below); PKCE (check-pkce-verifier.ts), and a public
 *    client's code must have had a challenge (AS-05). Nothing is consumed by a failed check:
 *    a wrong client, redirect_uri or verifier does not burn the code;
 * 3. the user still exists and is enabled; a sub-client code's parent grant is still alive;
 * 4. mint (ID token for `openid`, refresh token when the client refreshes), then in ONE
 *    transaction: consume the code (a conditional UPDATE: exactly one of any number of parallel
 *    redemptions wins, A-05), save the family, remember it on the code — sealed with the answer
 *    when the client has authCodeMulitUse. A failure in between rolls it all back.
 *
 * A code that was already used (AS-07, A-04): invalid_grant, and the family minted at its first
 * redemption is revoked — unless the client has authCodeMulitUse and this is the same client,
 * redirect_uri and verifier within CODE_REUSE_WINDOW_SEC of the first redemption: then the first
 * answer again, byte for byte, nothing new minted (SPEC §3, §9). The same request after the
 * window is refused without revoking (it is the client's own repeat); any other is an attack.
 */
import { CODE_REUSE_WINDOW_SEC } from '../defaults.js';
import { InvalidGrant, InvalidRequest } from '../errors.js';
import { checkPkceVerifier, pkceMatches } from '../checks/check-pkce-verifier.js';
import type { OAuthCode } from '../store/codes.repo.js';
import type { GrantDeps } from './deps.js';
import type { GrantContext, GrantHandler, TokenResponse } from './types.js';
import { CODE_HASH_PURPOSE } from '../authorize/authorize.service.js';

/**
 * RFC 6749 §4.1.3: "ensure that the redirect_uri parameter is present if [it] was included in
 * the initial authorization request, and if included ensure that their values are identical".
 * A code whose request omitted it (stored '') went to the client's only registered URI: the
 * token request may omit it too, or name that URI.
 */
function redirectMatches(row: OAuthCode, registered: readonly string[], presented: string | undefined): boolean {
  if (row.redirect_uri === '') return presented === undefined || registered.includes(presented);
  return presented === row.redirect_uri;
}

/** Internal: a parallel redemption consumed the code between our read and our write. */
class NotRedeemable extends Error {}

export function authorizationCodeGrant(d: GrantDeps): GrantHandler {
  /** Steps 2 and 3 on the code's row; throws invalid_grant. */
  async function checkRedemption(ctx: GrantContext, row: OAuthCode, redirectUri: string | undefined, verifier: string | undefined) {
    const { client } = ctx;
    if (row.realm_id !== ctx.realmId || row.client_ref !== client.id) throw new InvalidGrant('the code was issued to another client');
    if (!redirectMatches(row, client.redirectUris, redirectUri)) throw new InvalidGrant('redirect_uri does not match the authorization request');
    if (client.tokenEndpointAuthMethod === 'none' && row.code_challenge === null) throw new InvalidGrant('a public client needs PKCE');
    checkPkceVerifier(row.code_challenge, verifier);
    if (row.parent_family_id) {
      const parent = await d.families.find(row.parent_family_id);
      if (!parent || parent.revoked_at !== null || Number(parent.expires_at) <= ctx.now)
        throw new InvalidGrant('the grant this code was derived from has ended');
    }
  }

  /** A used code presented again: the multi-use answer, or invalid_grant (revoking on reuse). */
  async function redeemAgain(ctx: GrantContext, row: OAuthCode, redirectUri: string | undefined, verifier: string | undefined): Promise<TokenResponse> {
    const { client } = ctx;
    const sameRequest =
      client.authCodeMultiUse &&
      row.client_ref === client.id &&
      redirectMatches(row, client.redirectUris, redirectUri) &&
      pkceMatches(row.code_challenge, verifier);
    if (sameRequest) {
      const family = row.family_id ? await d.families.find(row.family_id) : undefined;
      const inWindow = ctx.now < Number(row.used_at) + CODE_REUSE_WINDOW_SEC * 1000;
      if (inWindow && row.response_sealed && family && family.revoked_at === null) {
        ctx.trace.familyId = family.id;
        if (family.account_id) ctx.trace.account = { id: family.account_id, name: '' };
        return JSON.parse(d.secrets.decrypt(row.response_sealed)) as TokenResponse;
      }
      throw new InvalidGrant('the authorization code was already used');
    }
    // RFC 6749 §4.1.2, RFC 6819 §5.2.1.1: deny AND revoke what the first redemption issued
    if (row.family_id) await d.revocation.revokeFor({ realmId: ctx.realmId, familyId: row.family_id, reason: 'code_reuse' });
    throw new InvalidGrant('the authorization code was already used');
  }

  /** The code's row as it is now; invalid_grant when there is none in this realm. */
  async function codeRow(ctx: GrantContext, hash: string): Promise<OAuthCode> {
    const row = await d.codes.find(hash);
    if (!row || row.realm_id !== ctx.realmId) throw new InvalidGrant('unknown authorization code');
    return row;
  }

  return async function authorizationCode(ctx) {
    const { client, params, now } = ctx;
    const code = params.code;
    if (!code) throw new InvalidRequest('code is required');
    if (code.length > 256) throw new InvalidGrant('unknown authorization code');
    const redirectUri = params.redirect_uri;
    const verifier = params.code_verifier;
    const hash = d.secrets.hash(CODE_HASH_PURPOSE, code);
    const row = await codeRow(ctx, hash);
    if (row.used_at !== null) return redeemAgain(ctx, row, redirectUri, verifier);
    if (Number(row.expires_at) <= now) throw new InvalidGrant('the authorization code has expired');
    await checkRedemption(ctx, row, redirectUri, verifier);
    const account = await d.accounts.findAccountById(row.realm_id, row.account_id);
    if (!account || account.disabled) throw new InvalidGrant('the user of this code cannot sign in');
    // Signed before the transaction (signing may read keys; a SQLite transaction holds the one
    // connection): if the code is lost to a parallel redemption these tokens are never sent.
    const issued = await d.mint.issue({
      client,
      grantType: 'authorization_code',
      scope: row.scope,
      subject: { account, authTime: Number(row.auth_time), sid: row.sid, nonce: row.nonce },
      parentFamilyId: row.parent_family_id,
      now,
    });
    // authCodeMulitUse: the answer, sealed with the master key, for the reuse window only
    const sealed = client.authCodeMultiUse ? d.secrets.encrypt(JSON.stringify(issued.response)) : null;
    try {
      await d.transact(async (trx) => {
        if (!(await d.codes.consume(hash, now, trx))) throw new NotRedeemable();
        await d.faults.afterCodeConsume?.();
        await d.mint.save(issued, trx);
        await d.codes.setFamily(hash, issued.familyId!, sealed, trx);
      });
    } catch (err) {
      // another redemption won the code between our read and our write
      if (err instanceof NotRedeemable) return redeemAgain(ctx, await codeRow(ctx, hash), redirectUri, verifier);
      throw err;
    }
    ctx.trace.account = { id: account.id, name: account.username };
    ctx.trace.familyId = issued.familyId;
    return issued.response;
  };
}
