/**
 * SQLite, the process's one connection: transactions that are ready together commit together
 * (issue 14 bench). Each commit appends every page it changed to the WAL; fifty sign-ins
 * finishing in the same turn of the event loop changed many of the same pages (the sessions
 * and audit indexes' last leaves, the throttle rows, the auth epoch) and each wrote them anew.
 *
 * Transactions asked for in one turn of the event loop are run one after the other in one
 * SQLite transaction, each inside a savepoint of its own, and committed once:
 * - each is still all or nothing: one that throws is rolled back to its savepoint, alone, and
 *   its caller gets its error; the others are unaffected;
 * - none is answered before the commit that holds it: a caller that hears "done" was made
 *   durable exactly as with a transaction of its own (WAL, synchronous = NORMAL);
 * - they run in the order asked, one at a time, each seeing the writes of those before it —
 *   what separate transactions on this one connection saw;
 * - if the commit itself fails (disk full), every transaction of the group gets that error.
 * PostgreSQL keeps one transaction per call (its connections commit in parallel).
 */
import type { ControlledTransaction } from 'kysely';
import type { Database, Db, Transact, TransactOptions } from './db.js';

/** Transactions in one group at most: a group holds the connection while it runs. */
export const GROUP_MAX = 64;

interface Member {
  work: (trx: Db) => Promise<unknown>;
  large: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * The connection itself, beside Kysely: while a group's transaction holds it, nothing else runs
 * on it, so the savepoints (two statements per member) and the members' prepared statements
 * (platform/prepared.ts) go to SQLite directly instead of through Kysely's mutex and promise
 * chain (issue 14 bench: ~15–20 µs a statement).
 */
export interface GroupConnection {
  inTransaction(): boolean;
  /** runs a control statement (savepoint, release, rollback to) now */
  exec(source: string): void;
  /** the group's transaction is open (`trx`) / is about to end */
  opened(trx: Db): void;
  closing(trx: Db): void;
}

export function groupCommitOn(db: Db, conn: GroupConnection): Transact {
  const queue: Member[] = [];
  let scheduled = false;

  async function runGroup(members: Member[]): Promise<void> {
    const settled: (() => void)[] = [];
    // A transaction alone in its group needs no savepoint: it fails as the whole group does.
    const alone = members.length === 1;
    let trx: ControlledTransaction<Database> | undefined;
    try {
      trx = await db.startTransaction().execute();
      conn.opened(trx);
      // One at a time, each released (or rolled back to) before the next: one name serves all.
      for (const m of members) {
        if (!alone) conn.exec('savepoint umbo_member');
        try {
          const value = await m.work(trx);
          if (!alone) conn.exec('release umbo_member');
          settled.push(() => m.resolve(value));
        } catch (err) {
          // SQLite ends the whole transaction on some errors (SQLITE_FULL, a ROLLBACK conflict
          // clause): the members before this one are gone too, and the group fails as one.
          if (alone || !conn.inTransaction()) throw err;
          conn.exec('rollback to umbo_member');
          conn.exec('release umbo_member');
          settled.push(() => m.reject(err));
        }
      }
      conn.closing(trx);
      await trx.commit().execute();
      trx = undefined;
    } catch (err) {
      // Also when SQLite already ended the transaction: Kysely gives the connection back only
      // on a commit that worked or on a rollback (whose "no transaction is active" is moot).
      if (trx) {
        conn.closing(trx);
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
      }
      for (const m of members) m.reject(err);
      return;
    }
    for (const s of settled) s();
  }

  function drain(): void {
    scheduled = false;
    // A large transaction commits in a group of its own, with no savepoint (TransactOptions).
    const large = queue.findIndex((m) => m.large);
    const members = queue.splice(0, large === 0 ? 1 : large > 0 ? Math.min(large, GROUP_MAX) : GROUP_MAX);
    if (queue.length > 0) schedule();
    void runGroup(members);
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    // After this turn's I/O callbacks: the transactions they ask for join the same group.
    setImmediate(drain);
  }

  return <T>(work: (trx: Db) => Promise<T>, options?: TransactOptions) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, large: options?.large === true, resolve: resolve as (v: unknown) => void, reject });
      schedule();
    });
}
