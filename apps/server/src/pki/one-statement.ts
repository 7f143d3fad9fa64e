/**
 * Plain inserts of one transaction sent as ONE statement on PostgreSQL (issue 13 bench): an
 * issuance writes its certificate, issue record and audit event together, and with BEGIN and
 * COMMIT that was five round trips — on PostgreSQL each one costs the server a socket write and
 * a wake-up of the backend, the largest part of an issuance's CPU. Data-modifying statements
 * in WITH all run, in the one snapshot, and commit or fail together (PostgreSQL manual,
 * "Data-Modifying Statements in WITH"), so the writes stay all-or-nothing.
 *
 * `work` runs first against a recorder that compiles its statements for PostgreSQL and runs
 * none. When all of them are plain inserts (no RETURNING) they become
 * `WITH w1 AS (insert…), w2 AS (insert…) insert…`; anything else (a read, an update, a result
 * used) and SQLite run `work` in an ordinary transaction instead — so `work` may run twice and
 * must do nothing but its statements.
 */
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database, Db } from '../platform/db.js';

const PLAIN_INSERT = /^insert into "[a-z_][a-z0-9_]*" \([^)]*\) values \(/;

function recorder(into: CompiledQuery[]): Db {
  const connection: DatabaseConnection = {
    executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
      into.push(q);
      return Promise.resolve({ rows: [] });
    },
    streamQuery: () => {
      throw new Error('one-statement recorder: no streaming');
    },
  };
  const driver: Driver = {
    init: () => Promise.resolve(),
    acquireConnection: () => Promise.resolve(connection),
    beginTransaction: () => Promise.resolve(),
    commitTransaction: () => Promise.resolve(),
    rollbackTransaction: () => Promise.resolve(),
    releaseConnection: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
  };
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

/** The inserts as one statement, parameters renumbered in order; undefined unless all are plain inserts. */
export function combineInserts(qs: readonly CompiledQuery[]): CompiledQuery | undefined {
  if (!qs.length || !qs.every((q) => PLAIN_INSERT.test(q.sql) && !/\breturning\b/i.test(q.sql))) return undefined;
  const parameters: unknown[] = [];
  const parts = qs.map((q) => {
    const offset = parameters.length;
    parameters.push(...q.parameters);
    // Kysely compiles every value to a parameter: `$n` appears nowhere else in these inserts
    return q.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
  });
  const last = parts.pop()!;
  const sql = parts.length ? `with ${parts.map((p, i) => `w${i + 1} as (${p})`).join(', ')} ${last}` : last;
  return CompiledQuery.raw(sql, parameters);
}

export function createOneStatement(db: Db) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  /** Runs the writes of `work` all-or-nothing: one statement on PostgreSQL when they are plain inserts. */
  return async function oneStatement(work: (trx: Db) => Promise<void>): Promise<void> {
    if (postgres) {
      const recorded: CompiledQuery[] = [];
      await work(recorder(recorded));
      const one = combineInserts(recorded);
      if (one) {
        await db.executeQuery(one);
        return;
      }
    }
    await db.transaction().execute(work);
  };
}
