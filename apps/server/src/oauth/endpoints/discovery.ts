/**
 * A realm's provider metadata (OIDC Discovery 1.0 §3, RFC 8414 §2), truthful: only what the
 * endpoints of oauth/ implement. An endpoint owner who changes a capability changes it here.
 *
 * AS-18: `issuer` is `{PUBLIC_URL}/realms/{realmId}` from configuration, never from the request's
 * Host, and the document is served at `{issuer}/.well-known/openid-configuration` (OIDC Discovery
 * §4.3: the issuer must equal the URL prefix). AS-26: request_uri_parameter_supported defaults
 * to true when absent (OIDC Discovery §3), so `false` is said explicitly.
 */

/**
 * What the ID token (oauth/tokens/mint.ts) and userinfo (oauth/tokens/claims.ts, OIDC Core §5.4
 * by scope) carry. Change it with them.
 */
export const CLAIMS_SUPPORTED = [
  'sub',
  'iss',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'sid',
  'name',
  'preferred_username',
  'updated_at',
  'email',
  'email_verified',
  'phone_number',
] as const;

export const SCOPES_SUPPORTED = ['openid', 'profile', 'email', 'phone', 'offline_access'] as const;

export const GRANT_TYPES_SUPPORTED = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:token-exchange',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;

/** Client authentication at the token endpoint (`none`: public clients, PKCE required). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;

/** Algorithms of our ID tokens and of the private_key_jwt assertions we verify (oauth/jwt.ts). */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;

export function oauthEndpoints(issuer: string) {
  return {
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/oauth/jwks`,
    end_session_endpoint: `${issuer}/oauth/logout`,
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
  };
}

export function discoveryDocument(issuer: string) {
  return {
    issuer,
    ...oauthEndpoints(issuer),
    scopes_supported: [...SCOPES_SUPPORTED],
    // code only: no implicit or hybrid flows (RFC 9700 §2.1.2), no `none` response type
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    // no `password`, no `implicit` (RFC 9700 §2.4)
    grant_types_supported: [...GRANT_TYPES_SUPPORTED],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...SIGNING_ALGS],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    token_endpoint_auth_signing_alg_values_supported: [...SIGNING_ALGS],
    // RFC 7662 §2.1: the caller is a client that authenticates
    introspection_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS.filter((m) => m !== 'none'),
    introspection_endpoint_auth_signing_alg_values_supported: [...SIGNING_ALGS],
    // RFC 7009 §2.1: public clients revoke with their client_id
    revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    revocation_endpoint_auth_signing_alg_values_supported: [...SIGNING_ALGS],
    // plain is not offered (RFC 9700 §2.1.1)
    code_challenge_methods_supported: ['S256'],
    claims_supported: [...CLAIMS_SUPPORTED],
    claim_types_supported: ['normal'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    require_request_uri_registration: false,
    prompt_values_supported: ['none', 'login', 'consent'],
    // RFC 9207: `iss` in every authorization response (AS-18)
    authorization_response_iss_parameter_supported: true,
    frontchannel_logout_supported: false,
    backchannel_logout_supported: false,
  };
}

export type DiscoveryDocument = ReturnType<typeof discoveryDocument>;
