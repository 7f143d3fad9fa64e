import type { Kysely } from 'kysely';

/** TOTP secrets (sealed), the last accepted time step, and single-use recovery codes (issue 3, A-32). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_otp')
    .addColumn('account_id', 'varchar(64)', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('secret', 'text')
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pending_secret', 'text')
    .addColumn('pending_at', 'bigint')
    .addColumn('enabled_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('otp_recovery_codes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('otp_recovery_codes_account').on('otp_recovery_codes').columns(['account_id', 'code_hash']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('otp_recovery_codes').execute();
  await db.schema.dropTable('account_otp').execute();
}
