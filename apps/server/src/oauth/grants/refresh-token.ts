/**
 * The refresh token grant (RFC 6749 §6; RFC 9700 §4.14.2; AS-09, AS-10; ):
 *
 * 1. the token exists in this realm and belongs to a family of THIS client (bound to the
 *    client: another client's token is invalid_grant, and revokes nothing);
 * 2. the family is not revoked and has not reached its absolute end; the token is unexpired;
 * 3. a token already used (rotation) is a replay: the whole family is revoked (the attacker's
 *    tokens and the victim's alike) and the answer is invalid_grant — except a presentation at
 *    the very instant of the first use (REFRESH_RACE_WINDOW_MS), the loser of its own client's
 *    parallel requests, refused without revoking;
 * 4. the user still exists and is enabled; the client is authenticated and enabled;
 * 5. `scope` may narrow, never widen (invalid_scope); the family keeps its original scope;
 * 6. rotation (client refreshTokenRecreate; always for a public client, RFC 9700 §4.14.2): in one transaction insert the successor, then mark
 *    the presented token used with a conditional UPDATE — of parallel refreshes exactly one
 *    commits, the others roll their successor back (A-45: a failure between the two writes
 *    leaves the old token valid and the new one unknown). Without rotation the same token is
 *    answered again and nothing is written.
 */
import { REFRESH_RACE_WINDOW_MS } from '../defaults.js';
import { InvalidGrant, InvalidRequest } from '../errors.js';
import { checkTokenScope, scopeList } from '../checks/check-token-scope.js';
import type { OAuthFamily } from '../store/families.repo.js';
import type { RefreshTokenWithFamily } from '../store/refresh-tokens.repo.js';
import type { GrantDeps } from './deps.js';
import type { GrantHandler } from './types.js';

class RaceLost extends Error {}

function familyOf(t: RefreshTokenWithFamily): OAuthFamily {
  return {
    id: t.family_id,
    realm_id: t.realm_id,
    client_ref: t.family_client_ref,
    account_id: t.family_account_id,
    grant_type: t.family_grant_type,
    scope: t.family_scope,
    auth_time: t.family_auth_time,
    sid: t.family_sid,
    parent_id: null,
    actor_client_id: null,
    created_at: t.family_created_at,
    expires_at: t.family_expires_at,
    revoked_at: t.family_revoked_at,
    revoke_reason: null,
  };
}

export function refreshTokenGrant(d: GrantDeps): GrantHandler {
  return async function refreshToken(ctx) {
    const { client, params, now, realmId } = ctx;
    const value = params.refresh_token;
    if (!value) throw new InvalidRequest('refresh_token is required');
    if (value.length > 256) throw new InvalidGrant('unknown refresh token');
    const hash = d.mint.hashRefresh(value);
    const rt = await d.refreshTokens.findWithFamily(hash);
    if (!rt || rt.realm_id !== realmId) throw new InvalidGrant('unknown refresh token');
    if (rt.family_client_ref !== client.id) throw new InvalidGrant('the refresh token was issued to another client');
    if (rt.family_revoked_at !== null) throw new InvalidGrant('the refresh token was revoked');
    if (rt.used_at !== null) {
      if (Number(rt.used_at) < now - REFRESH_RACE_WINDOW_MS) {
        await d.revocation.revokeFor({ realmId, familyId: rt.family_id, reason: 'refresh_replay' });
      }
      throw new InvalidGrant('the refresh token was already used');
    }
    if (Number(rt.expires_at) <= now || Number(rt.family_expires_at) <= now) throw new InvalidGrant('the refresh token has expired');
    const account = rt.family_account_id ? await d.accounts.findAccountById(realmId, rt.family_account_id) : undefined;
    if (!account || account.disabled) throw new InvalidGrant('the user of this grant cannot sign in');
    const scope = checkTokenScope(params.scope, scopeList(rt.family_scope));
    // AS-09: a public client's refresh tokens are rotated whatever its setting (not sender-constrained)
    const rotate = client.refreshTokenRecreate || client.tokenEndpointAuthMethod === 'none';
    const subject = { account, authTime: Number(rt.family_auth_time ?? rt.family_created_at), sid: rt.family_sid };
    // signed before the transaction (signing may read keys; a SQLite transaction holds the one connection)
    const issued = await d.mint.refresh(familyOf(rt), client, subject, scope, rotate, now);
    if (rotate) {
      try {
        await d.transact(async (trx) => {
          await d.mint.save(issued, trx);
          await d.faults.afterRefreshInsert?.();
          if (!(await d.refreshTokens.consume(hash, now, trx))) throw new RaceLost();
        });
      } catch (err) {
        // a parallel refresh of the same token committed first: ours is rolled back
        if (err instanceof RaceLost) throw new InvalidGrant('the refresh token was already used');
        throw err;
      }
    } else {
      issued.response.refresh_token = value;
    }
    ctx.trace.account = { id: account.id, name: account.username };
    ctx.trace.familyId = rt.family_id;
    ctx.trace.event = 'refreshed';
    return issued.response;
  };
}
