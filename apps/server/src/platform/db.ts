/**
 * One Kysely handle over SQLite (embedded default) or PostgreSQL (DATABASE_URL), with one
 * set of migrations for both. Portability rules: ids are text, times are integer
 * milliseconds (bigint), booleans are integers 0/1, JSON is text.
 */
import { Kysely, SqliteDialect, type QueryResult } from 'kysely';
import type SQLite from 'better-sqlite3';
import type Pg from 'pg';
import { onFirstUse } from './packages.js';
import { SearchPathPostgresDialect } from './pg-introspector.js';
import { groupCommitOn } from './group-commit.js';
import { checkpointOffTheLoop } from './wal-checkpoint.js';
import { writeBatchOn } from './write-batch.js';

/** Each driver is loaded when a database of its kind is opened (a server uses one of them; pg alone ~2.7 MB of heap). */
const loadPg = onFirstUse<typeof Pg>('pg', (pg) => {
  // int8 (bigint) arrives as a string by default; our millisecond times fit a double.
  pg.types.setTypeParser(20, (v) => Number(v));
});
const loadSqlite = onFirstUse<typeof SQLite>('better-sqlite3');

/** The job runner's leases (jobs.ts): platform's own table. */
export interface JobLeaseTable {
  name: string;
  holder: string;
  lease_until: number;
  last_run_at: number | null;
}

/**
 * The tables, as Kysely sees them. Each area declares its own in `<area>.tables.ts` and adds
 * them here by declaration merging (`declare module '…/platform/db.js'`), so the platform
 * imports no area and a new area's tables change nothing in this file.
 */
export interface Database {
  job_leases: JobLeaseTable;
}

/** Runs `work` in one transaction: all of its writes happen, or none (DESIGN.md §5). */
export type Transact = <T>(work: (trx: Db) => Promise<T>, options?: TransactOptions) => Promise<T>;

export interface TransactOptions {
  /**
   * The work may change a large part of the database (a realm deleted or imported, a CSV
   * import). On SQLite it commits alone rather than in a group: inside a group it would run
   * under a savepoint, and SQLite would keep a copy of every page it changed in memory
   * (temp_store = MEMORY) until its end — hundreds of MB for a realm of a million accounts.
   */
  large?: boolean;
}

/**
 * The transaction runner services are given (they never see Kysely): every repository method
 * takes the `trx` it hands out as its optional last argument.
 */
export function transactOn(db: Db): Transact {
  return groupedTransacts.get(db) ?? ((work) => db.transaction().execute(work));
}

/** SQLite: transactions ready in the same turn of the event loop commit as one (platform/group-commit.ts). */
const groupedTransacts = new WeakMap<Db, Transact>();

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL schema in use, when not the default */
  schema?: string;
  /** true when the database answers a trivial query */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
  /** pool figures for /metrics */
  poolStats(): { total: number; idle: number; waiting: number };
}

/**
 * SQLite only: a synchronous read of one row on the process's connection, for the one read
 * made on every request (the auth epoch). Going through Kysely's driver costs several times
 * the read itself (a mutex, a promise chain, result mapping). It sees what the connection
 * sees: committed rows, and the writes of a transaction this process has open — harmless for
 * a version number that only grows on commit. Absent on PostgreSQL.
 */
const syncReaders = new WeakMap<Db, (sql: string) => unknown>();
export function syncReaderOf(db: Db): ((sql: string) => unknown) | undefined {
  return syncReaders.get(db);
}

/**
 * SQLite only: runs one compiled statement on the process's connection, as Kysely's driver
 * would, without its mutex and promise chain (issue 14 bench: a federated sign-in runs about
 * ten statements, and the driver's path cost more CPU than SQLite did). Only while no
 * transaction is open on the connection: a read answers at once; a write commits with the
 * other writes asked for in the same turn (write-batch.ts), never inside a transaction of
 * another request, and is answered after that commit. Answers undefined when a transaction is
 * open: the caller goes through Kysely (and waits). Absent on PostgreSQL.
 */
export type SyncRunner = (
  sql: string,
  parameters: readonly unknown[],
  fallback: () => Promise<QueryResult<unknown>>,
) => QueryResult<unknown> | Promise<QueryResult<unknown>> | undefined;
const syncRunners = new WeakMap<Db, SyncRunner>();

/**
 * SQLite only: a group commit's transaction while it is open (group-commit.ts). Nothing else
 * runs on the connection then, so a statement of it runs at once on the connection, as
 * Kysely's driver would run it, without the driver's mutex and promise chain. Answers
 * undefined if SQLite has already ended the transaction (the caller goes through Kysely, which
 * reports it). Absent for every other handle.
 */
export type InlineRunner = (sql: string, parameters: readonly unknown[]) => QueryResult<unknown> | undefined;
const inlineRunners = new WeakMap<Db, InlineRunner>();
export function inlineRunnerOf(trx: Db): InlineRunner | undefined {
  return inlineRunners.get(trx);
}
export function syncRunnerOf(db: Db): SyncRunner | undefined {
  return syncRunners.get(db);
}

/**
 * PostgreSQL: statements compiled once and run many times (platform/prepared.ts) go as named
 * statements, which each connection parses and plans once and then only binds (issue 12
 * bench: introspection's token-state join was parsed and planned anew on every call). The
 * name is one per SQL text for the whole process, so every connection maps a text to the same
 * name and no name ever stands for two texts. Bounded: past the cap, texts run unnamed. A text
 * with `*` (select *, returning *) stays unnamed: a kept statement whose row shape a later
 * migration changes fails ("cached plan must not change result type") on a running instance.
 */
const namedStatements = new Map<string, string>();
export function keepPrepared(sql: string): void {
  if (sql.includes('*') || namedStatements.size >= 1000 || namedStatements.has(sql)) return;
  namedStatements.set(sql, `umbo_${namedStatements.size + 1}`);
}

/**
 * SQLite only: how many statements that can change what the connection sees (writes, and
 * rollbacks) have run on it so far. Present only when the process holds the file for itself
 * (locking_mode EXCLUSIVE, the default): then no other process can write, and a value read
 * after the count was N is still current while the count is N (auth/auth-cache.repo.ts skips
 * the auth epoch's read on every request this way). Absent on PostgreSQL and on a shared file.
 */
const writeCounts = new WeakMap<Db, () => number>();
export function soleWriterCountOf(db: Db): (() => number) | undefined {
  return writeCounts.get(db);
}

export interface OpenDbOptions {
  /** PostgreSQL schema to use (tests isolate suites this way) */
  schema?: string;
  poolMax?: number;
  /** SQLite: how long a writer waits for the lock before SQLITE_BUSY */
  busyTimeoutMs?: number;
  /**
   * SQLite: let other processes open the file while this handle is open (normal locking).
   * Only for tests and tools that play a second process; a server holds its file for itself.
   */
  shared?: boolean;
}

export function openDb(url: string, opts: OpenDbOptions = {}): DbHandle {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), opts);
  return openPostgres(url, opts);
}

/** Statements that change what this connection sees without writing a row. */
const UNDOES = /^\s*rollback\b/i;

function openSqlite(file: string, opts: OpenDbOptions): DbHandle {
  // timeout: the busy timeout, from the first statement on (the journal_mode below waits it out)
  const sqlite = new (loadSqlite())(file, { timeout: opts.busyTimeoutMs ?? 5000 });
  // SQLite serves one process (DESIGN.md §1), and the server holds the file for itself:
  // EXCLUSIVE before WAL keeps the WAL index in the process's memory (no shared-memory file,
  // no file-lock calls on every transaction: ~20 fewer system calls a federated sign-in), a
  // second process pointed at the same file is refused at once instead of racing this one,
  // and this process knows every write (soleWriterCountOf). Set before the first access.
  if (!opts.shared) sqlite.pragma('locking_mode = EXCLUSIVE');
  try {
    sqlite.pragma('journal_mode = WAL');
  } catch (err) {
    sqlite.close();
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new Error(
        `configuration: the SQLite database ${file} is in use by another process. SQLite serves one umbo process; stop the other one, or give each its own DATA_DIR, or use PostgreSQL (DATABASE_URL) for several instances.`,
      );
    }
    throw err;
  }
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  // A checkpoint (two fsyncs and the copy of every page the WAL holds) ran inside the commit
  // that crossed SQLite's 1,000 pages (4 MB): in a federated sign-in storm every ~40 sign-ins,
  // two thirds of all commit time (issue 14 bench). At 4,000 (16 MB) a page written again and
  // again is copied once per checkpoint and the fsyncs are a quarter as many. The server's own
  // file is checkpointed by wal-checkpoint.ts instead, its WAL flushed off the event loop first.
  sqlite.pragma('wal_autocheckpoint = 4000');
  // Every write inside a transaction (a write batch, a group commit's savepoints) copies the
  // pages it changes to a statement journal first, so that it can fail alone. Past 64 KiB a
  // transaction's journal spilled to a temporary file: two pwrite calls per page copied, five
  // times the WAL's own writes, ~40 % of a federated sign-in's CPU (issue 14 bench: 1.08 →
  // 0.67 ms). SQLite keeps the journal in memory when temp_store is MEMORY as the write
  // transaction begins, so the batch and the group transactions set it for their span. Outside
  // them it stays on disk: there a large sort (a dashboard's count of a month of events, an
  // index built by a migration) spills past the cache instead of growing the process (+110 MB
  // for an index over 1,000,000 accounts in memory, +32 MB spilled). Allowed inside a
  // transaction while no TEMP table exists (umbo creates none); a refusal only costs speed.
  // (SQLite applies this pragma as it compiles it: a kept prepared statement would not set it again)
  const journalsIn = (where: 'memory' | 'disk') => {
    try {
      sqlite.exec(where === 'memory' ? 'pragma temp_store = memory' : 'pragma temp_store = default');
    } catch {
      // a TEMP table exists: the journal may spill to a file, as SQLite does by default
    }
  };
  let writes = 0;
  // Kysely prepares every query anew; better-sqlite3 statements are reusable, and preparing
  // is a measurable share of a sign-in, so keep the prepared ones (bounded). A statement
  // that can change what the connection sees is kept wrapped, counting its runs: counted
  // after it ran (even when it failed), so a value read after the count is never older.
  type Kept = Pick<SQLite.Statement, 'reader' | 'readonly' | 'all' | 'run' | 'get' | 'iterate'>;
  const countedRun =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return run(...args);
      } finally {
        writes++;
      }
    };
  const counted = (stmt: SQLite.Statement): Kept => ({
    reader: stmt.reader,
    // a write (or a rollback): counted, and batched outside a transaction
    readonly: false,
    all: countedRun(stmt.all.bind(stmt)),
    run: countedRun(stmt.run.bind(stmt)),
    get: countedRun(stmt.get.bind(stmt)),
    iterate: (...args: unknown[]) => {
      writes++;
      return stmt.iterate(...args);
    },
  });
  const cache = new Map<string, Kept>();
  const database = Object.assign(Object.create(sqlite) as SQLite.Database, {
    prepare(source: string) {
      let stmt = cache.get(source);
      if (!stmt) {
        if (cache.size >= 500) cache.clear();
        const prepared = sqlite.prepare(source);
        stmt = prepared.readonly && !UNDOES.test(source) ? prepared : counted(prepared);
        cache.set(source, stmt);
      }
      return stmt as SQLite.Statement;
    },
    close: () => sqlite.close(),
  });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  syncReaders.set(db, (source) => database.prepare(source).get());
  // the same calls and answer shape as Kysely's SqliteConnection.executeQuery
  const runOne = (source: string, parameters: readonly unknown[]): QueryResult<unknown> => {
    const stmt = database.prepare(source);
    if (stmt.reader) return { rows: stmt.all(parameters) };
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  };
  // begin, commit, savepoints: uncounted (they change no row), each prepared once
  const controls = new Map<string, SQLite.Statement>();
  const exec = (source: string) => {
    let stmt = controls.get(source);
    if (!stmt) controls.set(source, (stmt = sqlite.prepare(source)));
    stmt.run();
  };
  const inTransaction = () => sqlite.inTransaction;
  const ended = (source: string) => {
    try {
      exec(source);
    } finally {
      journalsIn('disk');
    }
  };
  const batched = writeBatchOn({
    inTransaction,
    run: runOne,
    begin: () => {
      journalsIn('memory');
      try {
        exec('begin');
      } catch (err) {
        journalsIn('disk');
        throw err;
      }
    },
    commit: () => ended('commit'),
    rollback: () => ended('rollback'),
  });
  syncRunners.set(db, (source, parameters, fallback) => {
    if (sqlite.inTransaction) return undefined;
    // reads answer at once; writes (insert … returning too) commit with the other writes of this turn (write-batch.ts)
    return database.prepare(source).readonly ? runOne(source, parameters) : batched(source, parameters, fallback);
  });
  if (!opts.shared) writeCounts.set(db, () => writes);
  const checkpointer = !opts.shared && file !== '' && file !== ':memory:' ? checkpointOffTheLoop(sqlite, `${file}-wal`, () => writes) : undefined;
  groupedTransacts.set(
    db,
    groupCommitOn(db, {
      inTransaction,
      exec,
      opened: (trx) => {
        journalsIn('memory');
        inlineRunners.set(trx, (source, parameters) => (sqlite.inTransaction ? runOne(source, parameters) : undefined));
      },
      closing: (trx) => {
        inlineRunners.delete(trx);
        journalsIn('disk');
      },
    }),
  );
  return {
    db,
    dialect: 'sqlite',
    async ping() {
      // Ready means writable: take and drop the write lock, waiting only briefly, so a
      // locked or read-only file fails readiness instead of hanging it.
      // A transaction of a request is open on the connection: the database is working.
      if (sqlite.inTransaction) return true;
      const previous = sqlite.pragma('busy_timeout', { simple: true }) as number;
      try {
        sqlite.pragma('busy_timeout = 200');
        sqlite.exec('BEGIN IMMEDIATE; ROLLBACK');
        return true;
      } catch {
        return false;
      } finally {
        sqlite.pragma(`busy_timeout = ${previous}`);
      }
    },
    close: () => {
      checkpointer?.stop();
      return db.destroy();
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
  };
}

function openPostgres(url: string, opts: OpenDbOptions): DbHandle {
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max: opts.poolMax ?? 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  // A checked-out client losing its socket emits 'error' on itself; its queries reject anyway,
  // so swallow the event rather than let it become an uncaught exception.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    corkQueries(client);
  });
  const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    schema: opts.schema,
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        });
        await Promise.race([pool.query('select 1'), timeout]);
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => db.destroy(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * pg writes each message of a query with parameters (parse, bind, describe, execute, sync)
 * with a write of its own: several system calls per query, the largest share of a small
 * read's CPU (issue 11 bench, GET /api/users/account on PostgreSQL). A query goes out while
 * `client.query` runs when the connection is idle (a pool's client runs one at a time), so
 * corking the socket around that call sends its messages as one write; a query that must
 * wait goes out later, uncorked, as before.
 */
function corkQueries(client: Pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
  if (!stream || typeof stream.cork !== 'function' || typeof stream.uncork !== 'function') return;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
    // Kysely runs a statement as query(text, values): a kept one goes by its name (keepPrepared)
    const name = typeof args[0] === 'string' && Array.isArray(args[1]) ? namedStatements.get(args[0]) : undefined;
    if (name) args = [{ name, text: args[0], values: args[1] }, ...args.slice(2)];
    stream.cork!();
    try {
      return query(...args);
    } finally {
      stream.uncork!();
    }
  };
}

/** Errors that mean "the database is not there", rendered as 503. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (/^SQLITE_(BUSY|LOCKED|READONLY|CANTOPEN|IOERR|CORRUPT|NOTADB|FULL)/.test(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) return true;
  // PostgreSQL classes 08 (connection), 53 (resources), 57 (operator intervention).
  if (/^(08|53|57)[0-9A-Z]{3}$/.test(code)) return true;
  const msg = typeof e.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|database connection/i.test(
    msg,
  );
}

/** A unique-constraint violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
