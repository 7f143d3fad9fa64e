/**
 * The token endpoint's grants by `grant_type` (RFC 6749 §4, RFC 8693, RFC 8628). A grant type
 * not listed here — `password` (AS-11: never), implicit (no such grant at this endpoint) or
 * anything unknown — is answered `unsupported_grant_type` by the endpoint.
 */
import { authorizationCodeGrant } from './authorization-code.js';
import { clientCredentialsGrant } from './client-credentials.js';
import type { GrantDeps } from './deps.js';
import { deviceCodeGrant } from './device-code.js';
import { refreshTokenGrant } from './refresh-token.js';
import { tokenExchangeGrant } from './token-exchange.js';
import { DEVICE_CODE_GRANT, TOKEN_EXCHANGE_GRANT, type GrantHandler } from './types.js';

export type { GrantContext, GrantHandler, TokenResponse } from './types.js';

export function createGrants(d: GrantDeps): Record<string, GrantHandler> {
  return {
    authorization_code: authorizationCodeGrant(d),
    refresh_token: refreshTokenGrant(d),
    client_credentials: clientCredentialsGrant(d),
    [TOKEN_EXCHANGE_GRANT]: tokenExchangeGrant(d),
    [DEVICE_CODE_GRANT]: deviceCodeGrant(d),
  };
}
