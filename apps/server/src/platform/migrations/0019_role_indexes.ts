import { sql, type Kysely } from 'kysely';

/**
 * Custom roles (issue 11): a role name is unique within its realm whatever its case (the
 * console lists roles by name; "Auditor" and "auditor" side by side would be a trap), and a
 * realm's assignments are listed by realm and role.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('roles_realm_name_unique')
    .on('roles')
    .unique()
    .expression(sql`realm_id, lower(name)`)
    .execute();
  await db.schema.createIndex('role_bindings_realm_role').on('role_bindings').columns(['realm_id', 'role_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('role_bindings_realm_role').execute();
  await db.schema.dropIndex('roles_realm_name_unique').execute();
}
