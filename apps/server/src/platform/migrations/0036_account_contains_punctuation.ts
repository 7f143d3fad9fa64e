/**
 * Issue 11: PostgreSQL's "contains" search (migration 0035) missed its 100 ms p99 at 1,000,000
 * accounts for texts holding punctuation (`a.iv`, `_yan`). pg_trgm splits a text into words
 * at every character that is not a letter or digit and keeps only the words' own trigrams, so
 * `%a.iv%` asks for `a` and `iv` — which ~22,000 rows hold — and each of those rows' table
 * pages was read to test the LIKE (~17,000 pages).
 *
 * Here user names and e-mails are indexed with their punctuation replaced by letters, one
 * character for one: `wei.li` is indexed as the one word `weiqli`. The list
 * (accounts.list.repo.ts) asks for the search text replaced the same way, beside the LIKE on
 * the column itself, which still decides (a text with no punctuation and no stand-in letter
 * matches the replaced column exactly where it matches the column). Why that is exact: replacing characters one by one
 * keeps every substring a substring (if `q` is inside `x`, `q` replaced is inside `x`
 * replaced), so the index's candidates hold every match; a real letter that reads the
 * same after the replacement only adds a candidate the LIKE then drops. Letters, not other
 * characters, because pg_trgm keeps only letters and digits (non-ASCII ones only under some
 * locales); letters rarely next to these neighbours in names and addresses, so the trigrams
 * spanning a `.` stay as rare as the `.` itself. One character each: as many trigrams per row
 * as before, so writing an account costs what it did (the two plain indexes of 0035 on these
 * columns are dropped: nothing reads them any more).
 *
 * Phones (`+` first only) and ids (letters and digits) keep 0035's indexes. SQLite's trigram
 * table (0035) keeps punctuation already: nothing changes there.
 *
 * Cost on an existing database: the two indexes are built in the start's migration, and
 * writes to `accounts` (sign-ins of instances still running) wait meanwhile (CREATE INDEX
 * CONCURRENTLY cannot run in the migration's transaction): at 1,000,000 accounts ~12 s on a
 * quiet 2-core machine, a start of 16–25 s instead of 2–3 under load (CHANGELOG).
 *
 * The repo imports `containsMapped` from here so that its query is the index expression exactly.
 * Changing the mapping therefore means a new migration with new indexes, never an edit here.
 */
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/** The characters replaced, and the letters replacing them (the n-th for the n-th). */
export const CONTAINS_PUNCTUATION = '._@-+';
export const CONTAINS_STAND_INS = 'qxzjv';
export const CONTAINS_MAPPED_COLUMNS = ['username_norm', 'email_norm'] as const;
export type ContainsMappedColumn = (typeof CONTAINS_MAPPED_COLUMNS)[number];

/**
 * The indexed expression: a query must spell it the same way for the planner to use the index.
 * Nested replace() rather than translate(), which gives the same text (no stand-in is itself
 * replaced) at ~0.1 µs a row instead of ~0.5: PostgreSQL computes it again for every candidate.
 */
export const containsMapped = (column: ContainsMappedColumn): RawBuilder<string> =>
  [...CONTAINS_PUNCTUATION].reduce<RawBuilder<string>>(
    (text, c, i) => sql<string>`replace(${text}, ${sql.lit(c)}, ${sql.lit(CONTAINS_STAND_INS[i]!)})`,
    sql<string>`${sql.ref(column)}`,
  );

const mappedIndex = (column: string) => `accounts_contains_mapped_${column}`;
const plainIndex = (column: string) => `accounts_contains_${column}`;

async function trigramOps(db: Kysely<any>) {
  // installed by 0035; named by its schema, whatever the search_path
  const { rows } = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  return sql.raw(`${rows[0]!.schema}.gin_trgm_ops`);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const ops = await trigramOps(db);
  // more memory than the default 64 MB: a GIN build over a million rows in fewer passes
  await sql`set local maintenance_work_mem = '256MB'`.execute(db);
  for (const column of CONTAINS_MAPPED_COLUMNS) {
    await sql`create index ${sql.ref(mappedIndex(column))} on accounts using gin ((${containsMapped(column)}) ${ops})`.execute(db);
    await db.schema.dropIndex(plainIndex(column)).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const ops = await trigramOps(db);
  for (const column of CONTAINS_MAPPED_COLUMNS) {
    await sql`create index ${sql.ref(plainIndex(column))} on accounts using gin (${sql.ref(column)} ${ops})`.execute(db);
    await db.schema.dropIndex(mappedIndex(column)).execute();
  }
}
