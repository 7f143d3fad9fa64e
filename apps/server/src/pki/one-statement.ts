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
import { keepPrepared, type Database, type Db } from '../platform/db.js';

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

/** The combined text of each list of insert texts seen (an issuance's are the same every time), or null when they do not combine. */
const combined = new Map<string, string | null>();

function combineTexts(qs: readonly CompiledQuery[]): string | null {
  if (!qs.every((q) => PLAIN_INSERT.test(q.sql) && !/\breturning\b/i.test(q.sql))) return null;
  let offset = 0;
  const parts = qs.map((q) => {
    const at = offset;
    offset += q.parameters.length;
    // Kysely compiles every value to a parameter: `$n` appears nowhere else in these inserts
    return q.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + at}`);
  });
  const last = parts.pop()!;
  return parts.length ? `with ${parts.map((p, i) => `w${i + 1} as (${p})`).join(', ')} ${last}` : last;
}

/** The inserts as one statement, parameters renumbered in order; undefined unless all are plain inserts. */
export function combineInserts(qs: readonly CompiledQuery[]): CompiledQuery | undefined {
  if (!qs.length) return undefined;
  const key = qs.map((q) => `${q.parameters.length}\u0000${q.sql}`).join('\u0000');
  let text = combined.get(key);
  if (text === undefined) {
    text = combineTexts(qs);
    if (combined.size >= 100) combined.clear();
    combined.set(key, text);
  }
  return text === null
    ? undefined
    : CompiledQuery.raw(
        text,
        qs.flatMap((q) => q.parameters),
      );
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
        // the same text every time for a given work (its statements are built once): a named
        // statement, which each connection parses and plans once (platform/db.ts keepPrepared)
        keepPrepared(one.sql);
        await db.executeQuery(one);
        return;
      }
    }
    await db.transaction().execute(work);
  };
}
