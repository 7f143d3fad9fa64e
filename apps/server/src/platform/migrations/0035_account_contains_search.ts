/**
 * Issue 11: the person list's "contains" search (`like '%x%'`) read every account of the realm
 * (p99 1–2.5 s at 1,000,000 accounts, npm run bench). Trigram indexes answer it for texts of
 * three characters or more (accounts.list.repo.ts; shorter ones match so many rows that
 * reading the list in order finds a page sooner).
 *
 * - PostgreSQL: pg_trgm's GIN indexes on the four searched columns; the query stays the same
 *   LIKE, which the planner answers from them. The extension is installed once per database
 *   (in `public`, not in the suite's or tenant's schema, so that dropping a schema never drops
 *   it from under another's indexes) and named by its schema here, whatever the search_path.
 * - SQLite: an FTS5 table with the trigram tokenizer, contentless (no second copy of the
 *   text), kept in step with `accounts` by triggers and keyed by the account's rowid, which a
 *   match is joined back on (one b-tree step; by id it was ~10× slower at 10,000 matches).
 *   That rowid is implicit, but stays: VACUUM keeps the rowids of a table that has indexes
 *   (SQLite's transfer of rows renumbers only index-less tables), and the list test runs one.
 *   A match is a candidate only (the tokenizer folds case, the table keeps no positions): the
 *   list still applies the LIKE, so the rows found are exactly the ones the scan found.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const COLUMNS = ['username_norm', 'email_norm', 'phone', 'id'] as const;
const index = (column: string) => `accounts_contains_${column}`;

/** The schema holding pg_trgm, installing it (in public) when the database has none. */
async function trigramSchema(db: Kysely<any>): Promise<string> {
  const find = async () =>
    // regnamespace::text is the name quoted where it needs to be
    (await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db)).rows[0]?.schema;
  let schema = await find();
  if (schema === undefined) {
    // Suites and tenants migrating side by side in one database: one installs, the others wait.
    await sql`select pg_advisory_xact_lock(hashtext('umbo:pg_trgm'))`.execute(db);
    await sql`create extension if not exists pg_trgm schema public`.execute(db);
    schema = await find();
  }
  return schema!;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const schema = await trigramSchema(db);
    for (const column of COLUMNS) {
      await sql`create index ${sql.ref(index(column))} on accounts using gin (${sql.ref(column)} ${sql.raw(`${schema}.gin_trgm_ops`)})`.execute(db);
    }
    return;
  }
  // detail=none: each trigram lists its rows only (no columns, no positions), a third of the
  // full index's size and ~40 % cheaper to write. A search asks for the rows holding all of
  // its trigrams; the LIKE decides. Column names of its own: the list joins it to accounts.
  await sql`create virtual table accounts_contains using fts5(
    name_text, email_text, phone_text, id_text,
    tokenize = 'trigram', detail = none, content = '', contentless_delete = 1
  )`.execute(db);
  const insert = sql.raw(
    'insert into accounts_contains (rowid, name_text, email_text, phone_text, id_text) values (new.rowid, new.username_norm, new.email_norm, new.phone, new.id)',
  );
  await sql`create trigger accounts_contains_insert after insert on accounts begin ${insert}; end`.execute(db);
  await sql`create trigger accounts_contains_delete after delete on accounts begin
    delete from accounts_contains where rowid = old.rowid; end`.execute(db);
  // Only when a searched text changes (sign-ins, status changes and the like write other columns).
  await sql`create trigger accounts_contains_update after update of username_norm, email_norm, phone, id on accounts begin
    delete from accounts_contains where rowid = old.rowid;
    ${insert}; end`.execute(db);
  await sql`insert into accounts_contains (rowid, name_text, email_text, phone_text, id_text)
    select rowid, username_norm, email_norm, phone, id from accounts`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The extension stays: other schemas of the database may index with it.
    for (const column of COLUMNS) await db.schema.dropIndex(index(column)).execute();
    return;
  }
  for (const t of ['insert', 'delete', 'update']) await sql`drop trigger ${sql.ref(`accounts_contains_${t}`)}`.execute(db);
  await sql`drop table accounts_contains`.execute(db);
}
