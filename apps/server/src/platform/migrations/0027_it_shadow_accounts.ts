import type { Kysely } from 'kysely';

/**
 * Shadow accounts of IT-interface backends (issue 14): which local account stands for which
 * backend user, per realm, and the region the user was last served from (lookups go back to
 * the same region's host). The unique (realm, backend user) pair is what makes two parallel
 * first sign-ins of one user end with one account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('it_shadow_links')
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('backend_user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('region', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('it_shadow_links_pk', ['realm_id', 'backend_user_id'])
    .execute();
  await db.schema.createIndex('it_shadow_links_account').on('it_shadow_links').column('account_id').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('it_shadow_links').execute();
}
