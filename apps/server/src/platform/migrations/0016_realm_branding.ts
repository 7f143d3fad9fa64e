import type { Kysely } from 'kysely';

/**
 * Issue 11: a realm's uploaded logo and icon, served to its sign-in page; and an index for
 * the domain list's search by domain name (realm ids are searched on the primary key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('realm_branding')
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('realm_branding_pk', ['realm_id', 'kind'])
    .execute();
  await db.schema.createIndex('realms_name').on('realms').column('name').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('realms_name').execute();
  await db.schema.dropTable('realm_branding').execute();
}
