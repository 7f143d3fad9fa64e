/**
 * Issue 11, at 1,000,000 accounts (npm run bench): a state or activation filter listed by name.
 * The name index (0033: username_norm, id, created_at) held neither, so reading it in name
 * order read each candidate's table row to test the filter: 2 % of the accounts disabled, a
 * page of 20 read ~1,000 table rows (40–65 ms a page on SQLite). With `disabled` and
 * `activated` at its end the test is made in the index, and only the page's rows are read.
 * A filter matching few rows is gathered from the status index instead (accounts.list.repo.ts
 * `few`), which no index order can make cheap.
 * The new index is built before the old one is dropped: no moment without one.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const NEW = 'accounts_list_username_state';
const OLD = 'accounts_list_username';

// The schema as it was then, not today's types (STYLE: migrations never change once released).
async function create(db: Kysely<any>, name: string, trailing: string[]): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const rest = trailing.map((c) => sql.ref(c));
    await sql`create index ${sql.ref(name)} on accounts (realm_id, kind, username_norm collate "C", id collate "C", ${sql.join(rest)})`.execute(db);
  } else {
    await db.schema
      .createIndex(name)
      .on('accounts')
      .columns(['realm_id', 'kind', 'username_norm', 'id', ...trailing])
      .execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await create(db, NEW, ['created_at', 'disabled', 'activated']);
  await db.schema.dropIndex(OLD).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await create(db, OLD, ['created_at']);
  await db.schema.dropIndex(NEW).execute();
}
