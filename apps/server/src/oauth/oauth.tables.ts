/**
 * The provider's state (issue 12, migration 0022). One writer per table: oauth/keys/keys.repo.ts
 * (oauth_signing_keys) and one repo per table in oauth/store/.
 */

export interface OAuthSigningKeyTable {
  kid: string;
  realm_id: string;
  /** ES256 | RS256 */
  alg: string;
  /** JSON public JWK (with kid, alg, use) */
  public_jwk: string;
  /** PKCS#8 PEM sealed with the master key (Secrets.encrypt) */
  private_sealed: string;
  created_at: number;
  use_after: number;
  retired_at: number | null;
  remove_after: number | null;
  /** 1, 2, … per realm and alg, unique (migration 0024): concurrent creations collide, one wins */
  generation: number;
}

/** SPEC §3 "OAuth record" */
export interface OAuthConsentTable {
  id: string;
  realm_id: string;
  account_id: string;
  client_ref: string;
  /** space-separated granted scopes */
  scope: string;
  created_at: number;
  updated_at: number;
}

export interface OAuthFamilyTable {
  id: string;
  realm_id: string;
  client_ref: string;
  account_id: string | null;
  grant_type: string;
  scope: string;
  auth_time: number | null;
  sid: string | null;
  parent_id: string | null;
  actor_client_id: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  revoke_reason: string | null;
}

export interface OAuthCodeTable {
  code_hash: string;
  realm_id: string;
  client_ref: string;
  account_id: string;
  redirect_uri: string;
  scope: string;
  nonce: string | null;
  code_challenge: string | null;
  auth_time: number;
  sid: string | null;
  parent_family_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  family_id: string | null;
  response_sealed: string | null;
}

export interface OAuthRefreshTokenTable {
  token_hash: string;
  family_id: string;
  realm_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface OAuthRevokedTokenTable {
  jti: string;
  realm_id: string;
  expires_at: number;
}

export interface OAuthDeviceCodeTable {
  device_code_hash: string;
  user_code_hash: string;
  realm_id: string;
  client_ref: string;
  scope: string;
  /** pending | approved | denied | used */
  status: string;
  account_id: string | null;
  auth_time: number | null;
  interval_sec: number;
  last_polled_at: number | null;
  created_at: number;
  expires_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    oauth_signing_keys: OAuthSigningKeyTable;
    oauth_consents: OAuthConsentTable;
    oauth_families: OAuthFamilyTable;
    oauth_codes: OAuthCodeTable;
    oauth_refresh_tokens: OAuthRefreshTokenTable;
    oauth_revoked_tokens: OAuthRevokedTokenTable;
    oauth_device_codes: OAuthDeviceCodeTable;
  }
}
