import type { Kysely } from 'kysely';

/**
 * What a service (sub) account has beyond its `accounts` row (issue 11): a description and its
 * "resources", the grants (permissionId.action) over its owner's objects. One row per service
 * account, gone with the account (and with its realm). A service account without a row has no
 * description and no grants.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_accounts')
    .addColumn('account_id', 'varchar(64)', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('owner_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    /** JSON: [{permissionId, actions: [...]}] */
    .addColumn('grants', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('service_accounts_realm').on('service_accounts').column('realm_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_accounts').execute();
}
