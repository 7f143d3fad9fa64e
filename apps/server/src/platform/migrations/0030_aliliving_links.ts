import type { Kysely } from 'kysely';

/**
 * Ali Living links (issue 14): one row per (realm, account) of a realm whose backend is
 * `aliliving`: the account's identity id on the Ali Living platform once it is known, else the
 * last error and when to try again. The row is written after a sign-in, never during it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('aliliving_links')
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('identity_id', 'varchar(128)')
    .addColumn('linked_at', 'bigint')
    .addColumn('last_error', 'varchar(300)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_try_at', 'bigint', (c) => c.notNull())
    .addColumn('next_try_at', 'bigint')
    .addPrimaryKeyConstraint('aliliving_links_pk', ['realm_id', 'account_id'])
    .execute();
  // the retry job reads the unlinked rows that are due
  await db.schema.createIndex('aliliving_links_due').on('aliliving_links').columns(['next_try_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('aliliving_links').execute();
}
