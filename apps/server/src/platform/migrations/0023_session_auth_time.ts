/**
 * Sessions remember when their holder actually authenticated (issue 12). A browser SSO session
 * of the OpenID provider is issued from a console session that may be days old: its OIDC
 * `auth_time` (and the max_age decisions made on it, OIDC Core §3.1.2.1) must be that sign-in's
 * time, not the moment the SSO cookie was set. null: the session's own created_at.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('auth_time', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('auth_time').execute();
}
