/**
 * Issue 11: the person account list pages by keyset and searches by prefix at any size
 * (1,000,000 accounts in a realm). Every index leads with (realm_id, kind), the two columns
 * every list query fixes, then the sort key and the id that breaks its ties, or the column a
 * prefix search ranges over. On PostgreSQL the text columns are indexed in the "C" collation
 * (byte order, as SQLite compares): a prefix is then the range [p, successor(p)) in both
 * databases, and that range uses the index even in a prepared statement's generic plan,
 * which `LIKE 'p%'` does not.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const INDEXES: [name: string, columns: string[]][] = [
  ['accounts_list_created', ['created_at', 'id']],
  ['accounts_list_username', ['username_norm', 'id']],
  ['accounts_prefix_email', ['email_norm']],
  ['accounts_prefix_phone', ['phone']],
  ['accounts_prefix_id', ['id']],
];

// The schema as it was then, not today's types (STYLE: migrations never change once released).
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [name, columns] of INDEXES) {
    if (pg) {
      const cols = columns.map((c) => (c === 'created_at' ? sql.ref(c) : sql`${sql.ref(c)} collate "C"`));
      await sql`create index ${sql.ref(name)} on accounts (realm_id, kind, ${sql.join(cols)})`.execute(db);
    } else {
      await db.schema
        .createIndex(name)
        .on('accounts')
        .columns(['realm_id', 'kind', ...columns])
        .execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
