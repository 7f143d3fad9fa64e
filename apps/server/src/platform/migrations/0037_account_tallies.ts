/**
 * Exact account totals without counting (issue 11): `account_tallies` holds how many accounts
 * each realm has per kind, disabled and activated, kept by triggers in the writing transaction,
 * so the person list answers "1,000,000 accounts" (or the disabled ones, or the activated ones)
 * from a handful of rows instead of walking 10,001 index entries to say "10,000+" (~2 ms at
 * 1,000,000 accounts on PostgreSQL, every page; npm run bench). A search or a registration-date
 * filter is still counted up to the cap (accounts.list.repo.ts).
 *
 * Triggers, not the application, as for the auth epoch (0021): every writer present and future,
 * bulk statements and ON DELETE CASCADE included, keeps the tallies, and they commit or roll back
 * with the change.
 * - SQLite (one writer at a time): row triggers add to one row per combination (upsert).
 * - PostgreSQL (many writers at once): statement triggers only ever INSERT rows of differences
 *   (+n for the rows a statement inserted, −n for those it deleted, ±1 for a row whose realm,
 *   kind, disabled or activated changed); a combination's total is the sum of its rows. Inserts
 *   take no row lock, so concurrent sign-ups and imports never wait for each other on a counter
 *   row, nor deadlock over two of them. The `account-tallies` job folds each combination's rows
 *   into one (accounts/account-tallies.jobs.ts).
 * No foreign key to realms: a realm's accounts are deleted by cascade in the statement that
 * deletes the realm, and their −n rows must still go in; a deleted realm's rows sum to 0 and the
 * job drops them.
 *
 * A restore must carry the table as it carries the accounts; a load that disables triggers
 * (session_replication_role = replica) must recount afterwards (`recountTallies`, as the
 * bench's seeder does).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const COMBINATION = 'realm_id, kind, disabled, activated';

const COUNTED = `insert into account_tallies (${COMBINATION}, n) select ${COMBINATION}, count(*) from accounts group by ${COMBINATION}`;

/**
 * Rebuilds every tally from the accounts themselves. PostgreSQL: one statement, so the rows it
 * deletes and the accounts it counts are of one snapshot (a concurrent writer's rows are in
 * neither, and stay). SQLite: in the caller's transaction, or on its own (one writer at a time).
 */
export async function recountTallies(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw(`with gone as (delete from account_tallies returning n) ${COUNTED}`).execute(db);
  } else {
    await sql.raw('delete from account_tallies').execute(db);
    await sql.raw(COUNTED).execute(db);
  }
}

// The schema as it was then, not today's types (migrations never change once released).
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('account_tallies')
    .addColumn('realm_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull())
    .addColumn('activated', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();

  if (pg) {
    // several rows per combination (differences), summed when read
    await sql.raw(`create index account_tallies_combination on account_tallies (${COMBINATION})`).execute(db);
    const add = (rows: string, sign: string) =>
      `insert into account_tallies (${COMBINATION}, n) select ${COMBINATION}, ${sign}count(*) from ${rows} group by ${COMBINATION};`;
    // `set search_path from current`: the functions find account_tallies in the schema they were made in
    await sql
      .raw(
        `create function umbo_tally_inserted() returns trigger language plpgsql set search_path from current as $$ begin ${add('inserted', '')} return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function umbo_tally_deleted() returns trigger language plpgsql set search_path from current as $$ begin ${add('deleted', '-')} return null; end $$`,
      )
      .execute(db);
    // A row trigger for updates: a statement trigger would run on every update (last sign-in
    // times included), this one only where a counted column changed.
    await sql
      .raw(
        `create function umbo_tally_moved() returns trigger language plpgsql set search_path from current as $$ begin ` +
          `insert into account_tallies (${COMBINATION}, n) values (old.realm_id, old.kind, old.disabled, old.activated, -1), (new.realm_id, new.kind, new.disabled, new.activated, 1); ` +
          `return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        'create trigger account_tallies_insert after insert on accounts referencing new table as inserted for each statement execute function umbo_tally_inserted()',
      )
      .execute(db);
    await sql
      .raw(
        'create trigger account_tallies_delete after delete on accounts referencing old table as deleted for each statement execute function umbo_tally_deleted()',
      )
      .execute(db);
    await sql
      .raw(
        `create function umbo_tally_truncated() returns trigger language plpgsql set search_path from current as $$ begin delete from account_tallies; return null; end $$`,
      )
      .execute(db);
    await sql.raw('create trigger account_tallies_truncate after truncate on accounts for each statement execute function umbo_tally_truncated()').execute(db);
    await sql
      .raw(
        `create trigger account_tallies_update after update of ${COMBINATION} on accounts for each row ` +
          'when (old.realm_id is distinct from new.realm_id or old.kind is distinct from new.kind or old.disabled is distinct from new.disabled or old.activated is distinct from new.activated) ' +
          'execute function umbo_tally_moved()',
      )
      .execute(db);
  } else {
    await sql.raw(`create unique index account_tallies_combination on account_tallies (${COMBINATION})`).execute(db);
    const add = (row: 'new' | 'old', n: number) =>
      `insert into account_tallies (${COMBINATION}, n) values (${row}.realm_id, ${row}.kind, ${row}.disabled, ${row}.activated, ${n}) ` +
      `on conflict (${COMBINATION}) do update set n = n + ${n};`;
    await sql.raw(`create trigger account_tallies_insert after insert on accounts for each row begin ${add('new', 1)} end`).execute(db);
    await sql.raw(`create trigger account_tallies_delete after delete on accounts for each row begin ${add('old', -1)} end`).execute(db);
    await sql
      .raw(
        `create trigger account_tallies_update after update of ${COMBINATION} on accounts for each row ` +
          'when old.realm_id is not new.realm_id or old.kind is not new.kind or old.disabled is not new.disabled or old.activated is not new.activated ' +
          `begin ${add('old', -1)} ${add('new', 1)} end`,
      )
      .execute(db);
  }
  // The accounts there already (PostgreSQL: CREATE TRIGGER locked out writers until this commits).
  await recountTallies(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of ['insert', 'delete', 'update', ...(pg ? ['truncate'] : [])]) {
    await sql.raw(pg ? `drop trigger if exists account_tallies_${t} on accounts` : `drop trigger if exists account_tallies_${t}`).execute(db);
  }
  if (pg) for (const f of ['inserted', 'deleted', 'moved', 'truncated']) await sql.raw(`drop function if exists umbo_tally_${f}()`).execute(db);
  await db.schema.dropTable('account_tallies').execute();
}
