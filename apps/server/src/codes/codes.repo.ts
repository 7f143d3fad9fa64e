/**
 * SQL for one-time codes and rate counters when no Redis is configured: the one writer of
 * `verification_codes` and `rate_counters` (codes.tables.ts). Realm-scoped. It is a
 * CodeStore, interchangeable with the Redis one (redis-store.ts), so its methods take no
 * transaction: no caller can join a Redis key to an SQL transaction, and each method is one
 * atomic statement already.
 */
import { sql } from 'kysely';
import type { Db } from '../platform/db.js';
import { prepare, type Prepared } from '../platform/prepared.js';
// The tables' declaration (merged into platform/db.ts's Database) comes with the repo that writes them.
import './codes.tables.js';
import { windowOf, type CheckResult, type CodeAttempt, type CodeKey, type CodeStore, type CounterKey, type NewCode } from './store.js';

const counterKey = (k: CounterKey) => `realm:${k.realmId}:${k.name}:${k.keyHash}:${windowOf(k).index}`;

export function createCodeRepo(
  db: Db,
): CodeStore & { deleteStaleCodes(now: number, graceMs: number): Promise<number>; deleteAllInRealm(realmId: string, trx?: Db): Promise<void> } {
  // The password form counts two captcha counters per sign-in and gives them back after it:
  // those statements are built once per number of keys (platform/prepared.ts), not per call.
  const byCount = (build: (n: number) => Prepared<Record<string, unknown>>) => {
    const made: Prepared<Record<string, unknown>>[] = [];
    return (n: number) => (made[n] ??= build(n));
  };
  const hitStatement = byCount((n) =>
    prepare<Record<string, unknown>>(db, (p) =>
      db
        .insertInto('rate_counters')
        .values(Array.from({ length: n }, (_, i) => ({ key: p(`key${i}`) as string, count: 1, window_end: p(`end${i}`) as number })))
        .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ count: eb('rate_counters.count', '+', 1) })))
        .returning(['key', 'count']),
    ),
  );
  const releaseStatement = byCount((n) =>
    prepare<Record<string, unknown>>(db, (p) =>
      db
        .updateTable('rate_counters')
        .set({ count: sql`count - 1` })
        .where(
          'key',
          'in',
          Array.from({ length: n }, (_, i) => p(`key${i}`) as string),
        )
        .where('count', '>', 0),
    ),
  );
  const keyArgs = (names: string[], keys?: CounterKey[]) => {
    const args: Record<string, unknown> = {};
    names.forEach((n, i) => {
      args[`key${i}`] = n;
      if (keys) args[`end${i}`] = windowOf(keys[i]!).end;
    });
    return args;
  };

  const byKey = (k: CodeKey) =>
    db.selectFrom('verification_codes').selectAll().where('realm_id', '=', k.realmId).where('purpose', '=', k.purpose).where('target_hash', '=', k.targetHash);

  return {
    kind: 'database',

    async putCode(k: CodeKey, c: NewCode, minIntervalMs: number): Promise<boolean> {
      const values = {
        code_hash: c.codeHash,
        serial_no: c.serialNo,
        subject: c.subject,
        attempts: 0,
        created_at: c.createdAt,
        expires_at: c.expiresAt,
        used_at: null,
      };
      // One statement: the resend throttle is decided by the row, not by a prior read.
      const res = await db
        .insertInto('verification_codes')
        .values({ realm_id: k.realmId, purpose: k.purpose, target_hash: k.targetHash, ...values })
        .onConflict((oc) =>
          oc
            .columns(['realm_id', 'purpose', 'target_hash'])
            .doUpdateSet(values)
            .where('verification_codes.created_at', '<=', c.createdAt - minIntervalMs),
        )
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async checkCode(k: CodeKey, a: CodeAttempt): Promise<CheckResult> {
      // One statement decides, compares and counts: the row lock (PostgreSQL) or the single
      // writer (SQLite) serialises parallel guesses, and each re-reads `attempts`.
      const hit = sql<boolean>`(code_hash = ${a.codeHash} and serial_no = ${a.serialNo})`;
      const decided = await db
        .updateTable('verification_codes')
        .set({
          attempts: sql`attempts + (case when ${hit} then 0 else 1 end)`,
          used_at: a.keep ? sql`used_at` : sql`(case when ${hit} then cast(${a.now} as bigint) else used_at end)`,
        })
        .where('realm_id', '=', k.realmId)
        .where('purpose', '=', k.purpose)
        .where('target_hash', '=', k.targetHash)
        .where('used_at', 'is', null)
        .where('attempts', '<', a.maxAttempts)
        .where('expires_at', '>', a.now)
        .returning([
          sql<number>`(case when ${hit} then 1 else 0 end)`.as('hit'),
          sql<number>`(case when serial_no = ${a.serialNo} then 1 else 0 end)`.as('same_serial'),
          'subject',
        ])
        .executeTakeFirst();
      if (decided) {
        if (Number(decided.hit) === 1) return { status: 'ok', subject: decided.subject };
        return { status: Number(decided.same_serial) === 1 ? 'wrong' : 'mismatch' };
      }
      // Nothing was compared: only say why.
      const row = await byKey(k).executeTakeFirst();
      if (!row) return { status: 'missing' };
      if (row.used_at !== null) return { status: 'used' };
      if (row.expires_at <= a.now) return { status: 'expired' };
      return { status: 'locked' };
    },

    async spendTries(k: CodeKey, serialNo: string, tries: number): Promise<void> {
      await db
        .updateTable('verification_codes')
        .set({ attempts: sql`attempts + ${sql.lit(Math.max(0, Math.floor(tries)))}` })
        .where('realm_id', '=', k.realmId)
        .where('purpose', '=', k.purpose)
        .where('target_hash', '=', k.targetHash)
        .where('serial_no', '=', serialNo)
        .where('used_at', 'is', null)
        .execute();
    },

    async hitCounter(k: CounterKey): Promise<number> {
      const row = await db
        .insertInto('rate_counters')
        .values({ key: counterKey(k), count: 1, window_end: windowOf(k).end })
        .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ count: eb('rate_counters.count', '+', 1) })))
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async hitCounters(keys: CounterKey[]): Promise<number[]> {
      if (keys.length === 0) return [];
      const names = keys.map(counterKey);
      const { rows } = await hitStatement(keys.length).run<{ key: string; count: number | string }>(keyArgs(names, keys));
      return names.map((n) => Number(rows.find((r) => r.key === n)?.count ?? 0));
    },

    async releaseCounters(keys: CounterKey[], trx?: Db): Promise<void> {
      if (keys.length === 0) return;
      await releaseStatement(keys.length).run(keyArgs(keys.map(counterKey)), trx);
    },

    async clearCounter(k: CounterKey): Promise<void> {
      await db.deleteFrom('rate_counters').where('key', '=', counterKey(k)).execute();
    },

    /** Sweep: codes long expired and counters of past windows go (a periodic job calls this). */
    async deleteStaleCodes(now: number, graceMs: number): Promise<number> {
      const a = await db
        .deleteFrom('verification_codes')
        .where('expires_at', '<', now - graceMs)
        .executeTakeFirst();
      const b = await db.deleteFrom('rate_counters').where('window_end', '<', now).executeTakeFirst();
      return Number(a.numDeletedRows) + Number(b.numDeletedRows);
    },
    /** Realm deletion (issue 11): the realm's pending codes and captchas (database store). */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('verification_codes').where('realm_id', '=', realmId).execute();
    },
  };
}

export type CodeRepo = ReturnType<typeof createCodeRepo>;
