/**
 * Token exchange for sub clients (RFC 8693; AS-25; A-18; SPEC §3 allowToken): the PARENT
 * client, holding a user's access token, obtains an access token of one of its sub clients for
 * the same user.
 *
 * 1. subject_token_type is an access token; actor tokens are not supported; the requested
 *    token type, if any, is an access token (invalid_request otherwise);
 * 2. `audience` (or `resource`) names the sub client: a client of this realm whose parent is
 *    the caller, enabled — else invalid_target; its allowToken is the caller's permission for
 *    this grant — off → unauthorized_client (the flag is the registration of the grant);
 * 3. the subject token is an active user access token of this realm (signature, expiry,
 *    revocation, family, account: access-tokens.ts) issued to the caller — else invalid_grant;
 * 4. `scope` ⊆ the subject token's scope ∩ the sub client's scopes (invalid_scope), default
 *    that intersection;
 * 5. an access token for the sub client: aud and client_id the sub client, `act.sub` the
 *    caller (`client:<client_id>`, §4.1), in a family whose parent is the subject token's —
 *    revoking the parent's grant revokes it. No refresh token, no ID token.
 */
import { clientSub } from '../tokens/mint.js';
import { checkTokenScope, scopeList } from '../checks/check-token-scope.js';
import { InvalidGrant, InvalidRequest, InvalidTarget, UnauthorizedClient } from '../errors.js';
import type { GrantDeps } from './deps.js';
import { ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT, type GrantHandler } from './types.js';

export function tokenExchangeGrant(d: GrantDeps): GrantHandler {
  return async function tokenExchange(ctx) {
    const { client, params, realmId, now } = ctx;
    if (!params.subject_token) throw new InvalidRequest('subject_token is required');
    if (params.subject_token_type !== ACCESS_TOKEN_TYPE) throw new InvalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
    if (params.actor_token !== undefined || params.actor_token_type !== undefined) throw new InvalidRequest('actor_token is not supported');
    if (params.requested_token_type !== undefined && params.requested_token_type !== ACCESS_TOKEN_TYPE) {
      throw new InvalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
    }
    const target = params.audience ?? params.resource;
    if (!target) throw new InvalidRequest('audience is required: the client_id of a sub client');
    const sub = target.length <= 128 ? await d.clients.findByClientId(realmId, target) : undefined;
    if (!sub || sub.parentId !== client.id || sub.disabled) throw new InvalidTarget('the audience is not a sub client of this client');
    if (!sub.allowToken) throw new UnauthorizedClient('this sub client does not allow token exchange');

    const check = await d.validateAccessToken(realmId, params.subject_token);
    if (!check.ok || !check.account || !check.claims.gid || check.claims.client_id !== client.clientId) {
      throw new InvalidGrant('subject_token is not an active user access token issued to this client');
    }
    const { claims, account } = check;
    const allowed = scopeList(claims.scope).filter((s) => sub.scopes.includes(s));
    const scope = checkTokenScope(params.scope, allowed);

    const issued = await d.mint.issue({
      client: sub,
      grantType: TOKEN_EXCHANGE_GRANT,
      scope,
      subject: { account, authTime: (claims.auth_time ?? claims.iat) * 1000, sid: claims.sid ?? null },
      now,
      idToken: false,
      refreshToken: false,
      act: { sub: clientSub(client.clientId) },
      parentFamilyId: claims.gid,
      actorClientId: client.clientId,
      issuedTokenType: ACCESS_TOKEN_TYPE,
    });
    await d.transact((trx) => d.mint.save(issued, trx));
    ctx.trace.account = { id: account.id, name: account.username };
    ctx.trace.familyId = issued.familyId;
    ctx.trace.event = 'exchanged';
    // AS-25 "record actor": the caller is the event's client, the sub client its audience
    ctx.trace.detail = { audience: sub.clientId };
    return issued.response;
  };
}
