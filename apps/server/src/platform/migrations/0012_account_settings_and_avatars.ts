import type { Kysely } from 'kysely';

/** The user's own preferences (SPEC §2 settings "custom", notification) and uploaded avatars (SPEC §5: ≤ 4 KB). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_settings')
    .addColumn('account_id', 'varchar(64)', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_avatars')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().unique().references('accounts.id').onDelete('cascade'))
    .addColumn('mime', 'varchar(32)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_avatars').execute();
  await db.schema.dropTable('account_settings').execute();
}
