/**
 * The client credentials grant (RFC 6749 §4.4; A-17): a confidential client, for itself.
 *
 * - only a client that authenticated (the token endpoint refuses public clients for it);
 * - from an allowed source range when the client has any (SPEC §5);
 * - `scope` within the client's registration, without the user scopes `openid` and
 *   `offline_access` (there is no user); none asked → none granted (least privilege, AS-19);
 * - an access token only: no refresh token (§4.4.3), no ID token; `sub` is `client:<client_id>`
 *   (AS-20). No family, no database write: the hot path of the bench.
 */
import { checkSourceRange } from '../checks/check-source-range.js';
import { checkTokenScope } from '../checks/check-token-scope.js';
import { UnauthorizedClient } from '../errors.js';
import type { GrantDeps } from './deps.js';
import type { GrantHandler } from './types.js';

const USER_SCOPES: ReadonlySet<string> = new Set(['openid', 'offline_access']);

/**
 * The scopes a client may ask for here, per client object. The client cache hands out one frozen
 * object per client while nothing changes (clients/client-cache.ts), and filtering a frozen array
 * takes V8's slow path on every token (issue 12 bench); a changed client is a new object.
 */
const machineScopes = new WeakMap<object, readonly string[]>();
function machineScopesOf(client: { scopes: readonly string[] }): readonly string[] {
  let scopes = machineScopes.get(client);
  if (!scopes) machineScopes.set(client, (scopes = client.scopes.filter((s) => !USER_SCOPES.has(s))));
  return scopes;
}

export function clientCredentialsGrant(d: GrantDeps): GrantHandler {
  return async function clientCredentials(ctx) {
    const { client } = ctx;
    if (client.tokenEndpointAuthMethod === 'none') throw new UnauthorizedClient('client_credentials needs a confidential client');
    checkSourceRange(client.sourceRanges, ctx.ip);
    const scope = checkTokenScope(ctx.params.scope, machineScopesOf(client), []);
    const issued = await d.mint.issue({ client, grantType: 'client_credentials', scope, subject: null, now: ctx.now });
    return issued.response;
  };
}
