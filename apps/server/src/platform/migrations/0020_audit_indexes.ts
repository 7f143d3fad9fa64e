import type { Kysely } from 'kysely';

/**
 * Audit trail indexes for the audit page's name filters and the dashboard (issue 11).
 * - The dashboard counts events per realm, action and day and the accounts that signed in:
 *   (realm_id, action, at, result, target_id) answers that from the index alone (an
 *   index-only scan on PostgreSQL, a covering index on SQLite). It replaces 0015's
 *   (realm_id, action, at), which is its prefix.
 * - The audit page filters by actor or target given as an id or a user name: the ids have
 *   0015's indexes; the names get theirs here, so a rare name in a large realm is found by a
 *   range rather than by reading the realm's whole trail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('audit_events_realm_action_cover').on('audit_events').columns(['realm_id', 'action', 'at', 'result', 'target_id']).execute();
  await db.schema.dropIndex('audit_events_realm_action_at').execute();
  await db.schema.createIndex('audit_events_realm_actor_name_at').on('audit_events').columns(['realm_id', 'actor_name', 'at']).execute();
  await db.schema.createIndex('audit_events_realm_target_name_at').on('audit_events').columns(['realm_id', 'target_name', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_events_realm_target_name_at').execute();
  await db.schema.dropIndex('audit_events_realm_actor_name_at').execute();
  await db.schema.createIndex('audit_events_realm_action_at').on('audit_events').columns(['realm_id', 'action', 'at']).execute();
  await db.schema.dropIndex('audit_events_realm_action_cover').execute();
}
