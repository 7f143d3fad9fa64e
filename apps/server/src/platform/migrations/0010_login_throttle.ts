import type { Kysely } from 'kysely';

/**
 * Failed sign-in counters per account name and per IP, per realm (issue 3, A-31). No foreign
 * key to realms: an unknown realm or user name is counted exactly like a known one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_throttle')
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('login_throttle_pk', ['realm_id', 'kind', 'key_hash'])
    .execute();
  await db.schema.createIndex('login_throttle_last_failure').on('login_throttle').column('last_failure_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_throttle').execute();
}
