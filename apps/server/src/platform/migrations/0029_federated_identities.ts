import type { Kysely } from 'kysely';

/**
 * Upstream OpenID identities linked to local accounts (issue 14): one row per (realm, issuer,
 * subject). The unique index is what makes an upstream identity name one account only, even
 * when two first sign-ins of the same person race.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('federated_identities')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('issuer', 'varchar(2048)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'varchar(320)')
    .addColumn('linked_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('federated_identities_subject').on('federated_identities').columns(['realm_id', 'issuer', 'subject']).unique().execute();
  await db.schema.createIndex('federated_identities_account').on('federated_identities').columns(['realm_id', 'account_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('federated_identities').execute();
}
