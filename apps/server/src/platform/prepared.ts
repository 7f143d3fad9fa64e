/**
 * A statement built with Kysely once and then run with new values only (issue 14 bench:
 * building and compiling a query through Kysely's builder cost more CPU than running it on
 * SQLite, on a sign-in's every statement). The query is written with the builder as usual,
 * each varying value given as `p('name')`; compiling it once yields the dialect's SQL text
 * and the position of every named value among its parameters, which later runs fill in.
 * Values the builder inlines (sql.lit) and constants stay as compiled.
 *
 * Only fixed shapes qualify: a list that expands to a variable number of parameters (`in`,
 * several rows) must be a statement of its own per length.
 */
import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import { inlineRunnerOf, keepPrepared, syncRunnerOf, type Db } from './db.js';

const MARK = '\u0000umbo-prepared:';

type Slot = { name: string } | { value: unknown };

export interface Prepared<A> {
  /** Runs the statement with these values, on `trx` when given (a transaction), else on the database. */
  run<R = unknown>(args: A, trx?: Db): Promise<QueryResult<R>>;
  /** The compiled SQL text (tests look). */
  readonly sql: string;
}

/** `build(p)`: the query with `p(name)` wherever a value of `args` goes. */
export function prepare<A extends object>(db: Db, build: (p: <K extends keyof A & string>(name: K) => A[K]) => Compilable<unknown>): Prepared<A> {
  const compiled = build((name) => `${MARK}${name}` as never).compile();
  const slots: Slot[] = compiled.parameters.map((v) => (typeof v === 'string' && v.startsWith(MARK) ? { name: v.slice(MARK.length) } : { value: v }));
  const { sql } = compiled;
  const runNow = syncRunnerOf(db);
  // PostgreSQL: a named server-side statement, parsed and planned once per connection
  if (!runNow) keepPrepared(sql);
  return {
    sql,
    run<R>(args: A, trx: Db = db): Promise<QueryResult<R>> {
      // every named value is bound: undefined (which the builder would have left out) as null
      const parameters = slots.map((s) => ('name' in s ? ((args as Record<string, unknown>)[s.name] ?? null) : s.value));
      const viaKysely = () => trx.executeQuery<R>(CompiledQuery.raw(sql, parameters));
      // SQLite, at once on the connection (platform/db.ts): outside a transaction (syncRunnerOf;
      // writes join this turn's batch), or inside a group commit's while it holds the connection
      let done: QueryResult<unknown> | Promise<QueryResult<unknown>> | undefined;
      try {
        done = trx === db ? runNow?.(sql, parameters, viaKysely) : inlineRunnerOf(trx)?.(sql, parameters);
      } catch (err) {
        return Promise.reject(err);
      }
      return done ? Promise.resolve(done as QueryResult<R> | Promise<QueryResult<R>>) : viaKysely();
    },
  };
}
