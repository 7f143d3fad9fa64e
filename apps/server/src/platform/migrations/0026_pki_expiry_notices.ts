import type { Kysely } from 'kysely';

/**
 * Certificate expiry notices (issue 13): one row per (certificate, threshold in days). The
 * unique index is what makes a notice go out once: the job inserts the row (the queued
 * notice) before it sends, and a second process or a retry finds it taken.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pki_expiry_notices')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('cert_id', 'varchar(64)', (c) => c.notNull().references('pki_certs.id').onDelete('cascade'))
    .addColumn('threshold_days', 'integer', (c) => c.notNull())
    .addColumn('realm_id', 'varchar(64)', (c) => c.references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pki_expiry_notices_cert').on('pki_expiry_notices').columns(['cert_id', 'threshold_days']).unique().execute();
  await db.schema.createIndex('pki_expiry_notices_state').on('pki_expiry_notices').columns(['state', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pki_expiry_notices').execute();
}
