/**
 * What the token endpoint hands a grant, and what a grant answers (RFC 6749 §5.1). The
 * endpoint (oauth/endpoints/token.routes.ts) has already: checked the method, content type and
 * repeated parameters, authenticated the client (oauth/checks/client-auth.ts), and refused a
 * grant type the client is not registered for. A grant throws OAuthError (oauth/errors.ts).
 */
import type { OAuthClient } from '../../clients/clients.repo.js';

export interface GrantTrace {
  /** the user the tokens are for (audit: never a token) */
  account?: { id: string; name: string } | undefined;
  familyId?: string | undefined;
  /** 'issued' (default), 'refreshed', 'exchanged': the audit event's last word */
  event?: 'issued' | 'refreshed' | 'exchanged' | undefined;
  /** small non-secret facts for the event (e.g. the exchange's audience) */
  detail?: Record<string, string> | undefined;
}

export interface GrantContext {
  realmId: string;
  /** the authenticated client (never disabled) */
  client: OAuthClient;
  /** the form body: every parameter once, as a string (unknown ones are there and ignored) */
  params: Readonly<Record<string, string>>;
  ip: string;
  userAgent: string;
  /** ms since the epoch, the server clock */
  now: number;
  /** filled by the grant for the audit record the endpoint writes */
  trace: GrantTrace;
}

/** RFC 6749 §5.1 (+ OIDC Core §3.1.3.3 id_token, RFC 8693 §2.2.1 issued_token_type). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
  /** omitted when nothing was granted (client_credentials without a scope) */
  scope?: string;
  issued_token_type?: string;
}

export type GrantHandler = (ctx: GrantContext) => Promise<TokenResponse>;

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8693 §3 */
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
