/** OAuth clients and sub clients of a realm (SPEC §3, issue 12); clients.repo.ts is the table's only writer. */

export interface OAuthClientTable {
  /** internal row id (other tables' `client_ref`) */
  id: string;
  realm_id: string;
  /** the public client_id, unique in its realm */
  client_id: string;
  /** the parent client's row id for a sub client */
  parent_id: string | null;
  /** the developer who owns it (user/client); null for administrators' clients */
  owner_account_id: string | null;
  name: string;
  description: string;
  /** keyed hash (HMAC-SHA256) of the secret: never a slow password hash (issue 12 bench); null = public client */
  secret_hash: string | null;
  /** client_secret_basic | client_secret_post | private_key_jwt | none */
  token_endpoint_auth_method: string;
  /** JSON JWK Set for private_key_jwt */
  jwks: string | null;
  /** JSON string[] */
  redirect_uris: string;
  /** JSON string[] */
  post_logout_redirect_uris: string;
  /** JSON string[] of grant types this client may use */
  grant_types: string;
  /** JSON string[] of scopes this client may ask for */
  scopes: string;
  token_expir_sec: number;
  refresh_token_expir_sec: number;
  refresh_token_recreate: number;
  auth_code_multi_use: number;
  consent_required: number;
  /** ES256 | RS256 */
  signing_alg: string;
  login_tips: string;
  login_url: string;
  regist_url: string;
  /** JSON string[] of IPv4 CIDRs allowed to use client_credentials; [] = anywhere */
  source_ranges: string;
  allow_auth_code: number;
  allow_token: number;
  disabled: number;
  created_at: number;
  updated_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    oauth_clients: OAuthClientTable;
  }
}
