import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * The data centre's durable event queue (issue 14, federation/bigdata/): one row per account
 * event of a bigdata realm, written in the transaction of the event itself and deleted when the
 * data centre acknowledged it. `seq` orders the events of an account (delivery is in order per
 * account); `event_id` is what the receiver dedupes on. No foreign key to the account: the
 * event of a deleted account must outlive it. The realm's deletion takes its rows along.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('bigdata_events')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_holder', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_error', 'varchar(200)')
    .addColumn('last_error_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // the head of each account's line (is there an earlier event?) and the due scan
  await db.schema.createIndex('bigdata_events_account').on('bigdata_events').columns(['realm_id', 'account_id', 'seq']).execute();
  await db.schema.createIndex('bigdata_events_due').on('bigdata_events').columns(['next_attempt_at', 'seq']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bigdata_events').execute();
}
