import type { Kysely } from 'kysely';

/**
 * Facts about the deployment that every instance must agree on (issue 9). The first is the
 * master key's check value (platform/key-check.ts): a keyed hash, never the key, so that an
 * instance started with another MASTER_KEY refuses to start instead of silently refusing
 * every session and failing to open every sealed secret the others wrote.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('instance_settings')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('instance_settings').execute();
}
