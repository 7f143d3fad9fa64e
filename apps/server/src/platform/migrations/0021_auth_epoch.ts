/**
 * The auth epoch (issue 11, auth/auth-cache.ts): one row whose `version` grows whenever
 * something the guard decides on may have changed — an account row (disabled, deleted,
 * renamed, a forced password change…), a session revoked or deleted, a role, a role
 * binding or a service account's grants. Every instance keeps what it resolved for a bearer token in memory and re-reads
 * this one row on each request: an entry is used only while the version it was read under is
 * still the current one, so a logout, a disable or a role change made on any instance is
 * effective on every instance at the next request. A table that the guard's principal comes to
 * depend on later needs its trigger here too (a new migration adds it).
 *
 * Database triggers bump it, not the application: they fire in the writing transaction
 * (the bump commits or rolls back with the change), for every writer present and future,
 * bulk statements and ON DELETE CASCADE included, so no code path can forget it.
 * Not bumped: inserts of sessions and accounts (nothing cached can refer to them), a
 * session's last_seen_at (the cache re-reads a session within a minute of its last use
 * anyway) and sign-in bookkeeping (accounts.last_login_at/last_login_area), so signing in never
 * invalidates the other sessions' entries nor waits on the epoch row.
 *
 * PostgreSQL: statement-level triggers (one bump per statement, not per row). SQLite has
 * row-level triggers only; a bump there is one in-page update.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** accounts columns whose change bumps the epoch: all but sign-in bookkeeping */
const ACCOUNT_COLUMNS = [
  'id',
  'realm_id',
  'kind',
  'owner_id',
  'username',
  'username_norm',
  'email',
  'email_norm',
  'phone',
  'password_hash',
  'avatar',
  'disabled',
  'activated',
  'force_password',
  'regist_area',
  'created_at',
  'updated_at',
];

/** [trigger name, table, events] */
const TRIGGERS: [string, string, string[]][] = [
  ['auth_epoch_accounts', 'accounts', [`update of ${ACCOUNT_COLUMNS.join(', ')}`, 'delete']],
  ['auth_epoch_sessions', 'sessions', ['update of revoked_at, account_id, realm_id, token_hash, expires_at', 'delete']],
  ['auth_epoch_roles', 'roles', ['insert', 'update', 'delete']],
  ['auth_epoch_role_bindings', 'role_bindings', ['insert', 'update', 'delete']],
  // a service account's grants (migration 0018): its principal is its owner's roles cut down to them
  ['auth_epoch_service_accounts', 'service_accounts', ['insert', 'update', 'delete']],
];

const BUMP = 'update auth_epoch set version = version + 1 where id = 1';

// The schema as it was then, not today's types (migrations never change once released).
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('auth_epoch')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('auth_epoch').values({ id: 1, version: 1 }).execute();

  if (pg) {
    // `set search_path from current`: the function finds auth_epoch in the schema it was
    // created in, whatever the search path of the session that fires it.
    await sql
      .raw(`create function umbo_bump_auth_epoch() returns trigger language plpgsql set search_path from current as $$ begin ${BUMP}; return null; end $$`)
      .execute(db);
    for (const [name, table, events] of TRIGGERS) {
      // BEFORE the statement touches a row: every bumping statement takes the epoch row's lock
      // before any row lock of its own, so two transactions cannot each hold what the other
      // waits for (an AFTER trigger let an admin's disable, holding the epoch and waiting for a
      // session row, meet a logout holding that session row and waiting for the epoch).
      await sql.raw(`create trigger ${name} before ${events.join(' or ')} on ${table} for each statement execute function umbo_bump_auth_epoch()`).execute(db);
    }
  } else {
    for (const [name, table, events] of TRIGGERS) {
      for (const [i, event] of events.entries()) {
        await sql.raw(`create trigger ${name}_${i} after ${event} on ${table} for each row begin ${BUMP}; end`).execute(db);
      }
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [name, table, events] of TRIGGERS) {
    if (pg) await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
    else for (const i of events.keys()) await sql.raw(`drop trigger if exists ${name}_${i}`).execute(db);
  }
  if (pg) await sql.raw('drop function if exists umbo_bump_auth_epoch()').execute(db);
  await db.schema.dropTable('auth_epoch').execute();
}
