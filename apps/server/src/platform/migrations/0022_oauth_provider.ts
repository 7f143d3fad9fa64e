import type { Kysely } from 'kysely';

/**
 * The OAuth 2.0 / OpenID Connect provider (issue 12): clients and sub clients, signing keys,
 * authorization codes, token families with their refresh tokens, revoked access tokens, device
 * authorizations and consents (SPEC §3 "OAuth record"). Every token, code and secret is stored
 * as a keyed hash (AS-12); private keys and the authCodeMulitUse answer are sealed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    // the public client_id, unique in its realm (SPEC §5 "Sub-client ID already exists")
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('parent_id', 'varchar(64)', (c) => c.references('oauth_clients.id').onDelete('cascade'))
    .addColumn('owner_account_id', 'varchar(64)', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    // keyed hash of the secret; null for a public client
    .addColumn('secret_hash', 'varchar(128)')
    .addColumn('token_endpoint_auth_method', 'varchar(32)', (c) => c.notNull())
    .addColumn('jwks', 'text')
    .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('grant_types', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('token_expir_sec', 'integer', (c) => c.notNull())
    .addColumn('refresh_token_expir_sec', 'integer', (c) => c.notNull())
    .addColumn('refresh_token_recreate', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('auth_code_multi_use', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consent_required', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('signing_alg', 'varchar(8)', (c) => c.notNull().defaultTo('ES256'))
    .addColumn('login_tips', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('login_url', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('regist_url', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('source_ranges', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('allow_auth_code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_token', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_clients_realm_client').on('oauth_clients').columns(['realm_id', 'client_id']).unique().execute();
  await db.schema.createIndex('oauth_clients_parent').on('oauth_clients').column('parent_id').execute();
  await db.schema.createIndex('oauth_clients_owner').on('oauth_clients').column('owner_account_id').execute();

  await db.schema
    .createTable('oauth_signing_keys')
    .addColumn('kid', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('alg', 'varchar(8)', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // published from created_at, signs from use_after (AS-29: publish before use)
    .addColumn('use_after', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    // dropped from the JWKS once every token it signed has expired
    .addColumn('remove_after', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_signing_keys_realm').on('oauth_signing_keys').columns(['realm_id', 'alg']).execute();

  // SPEC §3 "OAuth record": a user's grant to a client
  await db.schema
    .createTable('oauth_consents')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_ref', 'varchar(64)', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_consents_account_client').on('oauth_consents').columns(['account_id', 'client_ref']).unique().execute();
  await db.schema.createIndex('oauth_consents_realm').on('oauth_consents').columns(['realm_id', 'updated_at']).execute();
  await db.schema.createIndex('oauth_consents_client').on('oauth_consents').column('client_ref').execute();

  // one authorization's tokens: its refresh-token chain and the access tokens minted from it
  await db.schema
    .createTable('oauth_families')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('client_ref', 'varchar(64)', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('grant_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('auth_time', 'bigint')
    // the browser SSO session the authorization came from (OIDC `sid`)
    .addColumn('sid', 'varchar(64)')
    // token exchange and sub-client codes: the parent grant this one was derived from
    .addColumn('parent_id', 'varchar(64)')
    .addColumn('actor_client_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // absolute end of the family, refreshes included
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoke_reason', 'varchar(32)')
    .execute();
  await db.schema.createIndex('oauth_families_account').on('oauth_families').columns(['account_id', 'client_ref']).execute();
  await db.schema.createIndex('oauth_families_client').on('oauth_families').column('client_ref').execute();
  await db.schema.createIndex('oauth_families_parent').on('oauth_families').column('parent_id').execute();
  await db.schema.createIndex('oauth_families_expires').on('oauth_families').column('expires_at').execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('client_ref', 'varchar(64)', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text')
    .addColumn('code_challenge', 'varchar(128)')
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('sid', 'varchar(64)')
    // sub-client codes obtained with the parent's token (allowAuthCode)
    .addColumn('parent_family_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    // the family minted at the first redemption: revoked on a reuse (AS-07)
    .addColumn('family_id', 'varchar(64)')
    // authCodeMulitUse: the first answer, sealed, kept for the 5-minute window only
    .addColumn('response_sealed', 'text')
    .execute();
  await db.schema.createIndex('oauth_codes_expires').on('oauth_codes').column('expires_at').execute();

  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('token_hash', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('family_id', 'varchar(64)', (c) => c.notNull().references('oauth_families.id').onDelete('cascade'))
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_refresh_tokens_family').on('oauth_refresh_tokens').column('family_id').execute();

  // access tokens revoked one by one (RFC 7009) before their expiry: their jti until then
  await db.schema
    .createTable('oauth_revoked_tokens')
    .addColumn('jti', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_revoked_tokens_expires').on('oauth_revoked_tokens').column('expires_at').execute();

  // RFC 8628 device authorization
  await db.schema
    .createTable('oauth_device_codes')
    .addColumn('device_code_hash', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_code_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('client_ref', 'varchar(64)', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    // pending | approved | denied | used
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(64)', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('auth_time', 'bigint')
    .addColumn('interval_sec', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_device_codes_expires').on('oauth_device_codes').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'oauth_device_codes',
    'oauth_revoked_tokens',
    'oauth_refresh_tokens',
    'oauth_codes',
    'oauth_families',
    'oauth_consents',
    'oauth_signing_keys',
    'oauth_clients',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
