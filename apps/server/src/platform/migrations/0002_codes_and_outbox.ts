import type { Kysely } from 'kysely';

/** Verification codes, mail-link codes, rate counters and the outbox (issue 3). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('verification_codes')
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('target_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('serial_no', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('verification_codes_pk', ['realm_id', 'purpose', 'target_hash'])
    .execute();
  await db.schema.createIndex('verification_codes_expires').on('verification_codes').column('expires_at').execute();

  await db.schema
    .createTable('mail_link_codes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('mail_link_codes_account').on('mail_link_codes').columns(['account_id', 'kind']).execute();

  await db.schema
    .createTable('rate_counters')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_end', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_counters_window_end').on('rate_counters').column('window_end').execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_created').on('outbox').columns(['created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['outbox', 'rate_counters', 'mail_link_codes', 'verification_codes']) await db.schema.dropTable(t).execute();
}
