import type { Kysely } from 'kysely';

/**
 * The audit trail (issue 11): every administrative change and sign-in event. Read by realm
 * and time (the audit page, keyset on (at, id)), by account (an account's timeline, as actor
 * and as target) and by action (the dashboard's figures); swept by age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(64)')
    .addColumn('actor_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_type', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('target_id', 'varchar(64)')
    .addColumn('target_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .addColumn('result', 'varchar(8)', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_events_realm_at').on('audit_events').columns(['realm_id', 'at', 'id']).execute();
  await db.schema.createIndex('audit_events_realm_actor_at').on('audit_events').columns(['realm_id', 'actor_id', 'at']).execute();
  await db.schema.createIndex('audit_events_realm_target_at').on('audit_events').columns(['realm_id', 'target_id', 'at']).execute();
  await db.schema.createIndex('audit_events_realm_action_at').on('audit_events').columns(['realm_id', 'action', 'at']).execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
}
