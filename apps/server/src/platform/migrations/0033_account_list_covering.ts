/**
 * Issue 11, at 1,000,000 accounts in a realm (npm run bench): searches and totals that 0017's
 * indexes left to the table.
 * - A prefix search answers newest first: 0017's search indexes found the matching rows, but
 *   each row then had to be read from the table for its registration time before 21 of them
 *   could be kept (a common prefix such as "li": 42,000 reads, ~0.2–0.5 s on SQLite). The
 *   search indexes now carry (created_at, id) too, so the newest matches are picked from the
 *   index alone and only the page's rows are read (accounts.list.repo.ts).
 * - Totals under the status filters counted by reading rows until 10,001 matched (disabled
 *   accounts are ~2 %: half a million reads). Two indexes answer them from the index, and serve
 *   the same filters' pages newest first.
 * The user name index keeps (username_norm, id) first: it is also the list's order by name.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const REPLACED: [name: string, columns: string[]][] = [
  ['accounts_list_username', ['username_norm', 'id', 'created_at']],
  ['accounts_prefix_email', ['email_norm', 'created_at', 'id']],
  ['accounts_prefix_phone', ['phone', 'created_at', 'id']],
  ['accounts_prefix_id', ['id', 'created_at']],
];
const ADDED: [name: string, columns: string[]][] = [
  ['accounts_list_status', ['disabled', 'activated', 'created_at', 'id']],
  ['accounts_list_activated', ['activated', 'created_at', 'id']],
];
const TEXT = new Set(['username_norm', 'email_norm', 'phone', 'id']);

// The schema as it was then, not today's types (STYLE: migrations never change once released).
async function create(db: Kysely<any>, name: string, columns: string[]): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const cols = columns.map((c) => (TEXT.has(c) ? sql`${sql.ref(c)} collate "C"` : sql.ref(c)));
    await sql`create index ${sql.ref(name)} on accounts (realm_id, kind, ${sql.join(cols)})`.execute(db);
  } else {
    await db.schema
      .createIndex(name)
      .on('accounts')
      .columns(['realm_id', 'kind', ...columns])
      .execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of REPLACED) {
    await db.schema.dropIndex(name).execute();
    await create(db, name, columns);
  }
  for (const [name, columns] of ADDED) await create(db, name, columns);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of ADDED) await db.schema.dropIndex(name).execute();
  const before: Record<string, string[]> = {
    accounts_list_username: ['username_norm', 'id'],
    accounts_prefix_email: ['email_norm'],
    accounts_prefix_phone: ['phone'],
    accounts_prefix_id: ['id'],
  };
  for (const [name] of REPLACED) {
    await db.schema.dropIndex(name).execute();
    await create(db, name, before[name]!);
  }
}
