/**
 * SQLite only: the single-statement writes that requests make outside a transaction (the sign-in
 * throttle's counters, above all) commit together, one commit per loop turn instead of one per
 * statement (issue 14 bench: a federated sign-in's two counter upserts cost ~60–90 µs each in
 * the server, most of it the commit's WAL frames; 50 concurrent sign-ins wrote the same few
 * counter pages once per statement).
 *
 * Each write still commits before its promise settles, so durability is unchanged; each keeps its
 * own statement-level atomicity (a failing statement is undone alone, as in autocommit) and its
 * place in call order. A batch runs synchronously, with no await inside, so no other request's
 * statement can land in it.
 *
 * Flushes: two immediates queued together run in the same check phase, with the microtasks of the
 * first's results between them, so a request whose first write's answer leads straight to a
 * second write (the captcha counters, then the lock counters) gets both committed in one turn
 * rather than waiting a poll phase for the second.
 */
import type { QueryResult } from 'kysely';

export interface WriteBatchDriver {
  /** a transaction of Kysely's (an async one) is open on the connection */
  inTransaction(): boolean;
  /** runs one statement now, on the connection, as Kysely's driver would */
  run(source: string, parameters: readonly unknown[]): QueryResult<unknown>;
  begin(): void;
  commit(): void;
  rollback(): void;
}

type Member = {
  source: string;
  parameters: readonly unknown[];
  /** the statement through Kysely, behind the transaction that holds the connection */
  fallback: () => Promise<QueryResult<unknown>>;
  resolve: (r: QueryResult<unknown>) => void;
  reject: (err: unknown) => void;
};

export type BatchedWrite = (source: string, parameters: readonly unknown[], fallback: () => Promise<QueryResult<unknown>>) => Promise<QueryResult<unknown>>;

export function writeBatchOn(driver: WriteBatchDriver): BatchedWrite {
  let queue: Member[] = [];
  let armed = false;

  /** One member on its own, in autocommit: what it would have been without batching. */
  function alone(m: Member): void {
    try {
      m.resolve(driver.run(m.source, m.parameters));
    } catch (err) {
      m.reject(err);
    }
  }

  function flush(): void {
    const members = queue;
    queue = [];
    if (members.length === 0) return;
    // A Kysely transaction is between two of its statements (it awaits something): a statement
    // of ours now would land inside it, so each waits for the connection as it did unbatched.
    if (driver.inTransaction()) {
      for (const m of members) m.fallback().then(m.resolve, m.reject);
      return;
    }
    if (members.length === 1) return alone(members[0]!);
    const settled: Array<() => void> = [];
    try {
      driver.begin();
      for (const m of members) {
        try {
          const r = driver.run(m.source, m.parameters);
          settled.push(() => m.resolve(r));
        } catch (err) {
          // a constraint or similar: SQLite undid this statement only, the batch goes on; an
          // error that ended the transaction (disk full, I/O) undid all of it
          if (!driver.inTransaction()) throw err;
          settled.push(() => m.reject(err));
        }
      }
      driver.commit();
    } catch {
      if (driver.inTransaction()) driver.rollback();
      // nothing of the batch was written: each member runs alone and gets its own answer
      for (const m of members) alone(m);
      return;
    }
    for (const s of settled) s();
  }

  function second(): void {
    armed = false;
    flush();
  }

  return (source, parameters, fallback) =>
    new Promise((resolve, reject) => {
      queue.push({ source, parameters, fallback, resolve, reject });
      if (armed) return;
      armed = true;
      setImmediate(flush);
      setImmediate(second);
    });
}
