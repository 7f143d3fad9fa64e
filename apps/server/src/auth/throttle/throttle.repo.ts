/**
 * SQL for sign-in attempt counters (the database ThrottleStore), the one writer of
 * `login_throttle` (throttle.tables.ts). A sign-in reserves both of its counters in one
 * statement and settles them in one more: the hot path stays at two writes, each atomic per
 * row, each built once per shape. Like the code store it is interchangeable with Redis (redis-store.ts), so it opens no
 * transaction; settle joins the caller's when given (a sign-in's writes commit together).
 */
import { sql, type RawBuilder } from 'kysely';
import { prepare, type Prepared } from '../../platform/prepared.js';
import type { Db } from '../../platform/db.js';
// The table's declaration (merged into platform/db.ts's Database) comes with the repo that writes it.
import './throttle.tables.js';
import { blockFor, blockRuns, type ThrottlePolicy } from './defaults.js';
import type { PolicedKey, Reservation, ThrottleKey, ThrottleStore } from './store.js';

/** blockFor(policy, count) as a CASE over a count expression, from the policy's constants. */
function blockSql(policy: ThrottlePolicy, count: RawBuilder<number>): RawBuilder<number> {
  const { runs, beyond } = blockRuns(policy);
  const whens = runs.map(([upTo, ms]) => sql`when ${count} <= ${sql.lit(upTo)} then ${sql.lit(ms)}`);
  return sql<number>`(case ${sql.join(whens, sql` `)} else ${sql.lit(beyond)} end)`;
}

/** `byKind(kind => expr)`: the expression of the row's own kind (one statement serves both). */
function byKind(keys: PolicedKey[], expr: (p: PolicedKey) => RawBuilder<unknown>): RawBuilder<number> {
  if (keys.length === 1) return expr(keys[0]!) as RawBuilder<number>;
  const whens = keys.map((k) => sql`when login_throttle.kind = ${sql.lit(k.key.kind)} then ${expr(k)}`);
  return sql<number>`(case ${sql.join(whens, sql` `)} end)`;
}

/**
 * The statements of reserve and settle, built once per shape (audit/prepared.ts): the kinds
 * in order and their policies' constants are the SQL text, every other value a parameter.
 * Building them through Kysely per sign-in cost more CPU than running them.
 */
function statements(db: Db) {
  const shapes = new Map<string, Prepared<Record<string, unknown>>>();
  const cached = (key: string, build: () => Prepared<Record<string, unknown>>) => {
    let st = shapes.get(key);
    if (!st) {
      // policies are a realm's settings: a few shapes per realm, bounded all the same
      if (shapes.size >= 1000) shapes.clear();
      st = build();
      shapes.set(key, st);
    }
    return st;
  };

  const reserveStatement = (keys: PolicedKey[]) =>
    cached(`reserve${JSON.stringify(keys.map((k) => [k.key.kind, k.policy]))}`, () =>
      prepare<Record<string, unknown>>(db, (p) => {
        const at = new Map(keys.map((k, i) => [k, i]));
        const count = (k: PolicedKey) =>
          sql<number>`(case when login_throttle.last_failure_at < ${p(`since${at.get(k)!}`)} then 1 else login_throttle.failures + 1 end)`;
        // One statement: the row locks (PostgreSQL) or the single writer (SQLite) make parallel
        // attempts see each other's counts, and a blocked row is left untouched (WHERE below).
        return db
          .insertInto('login_throttle')
          .values(
            keys.map((k, i) => ({
              realm_id: p('realm') as string,
              kind: k.key.kind,
              key_hash: p(`key${i}`) as string,
              failures: 1,
              last_failure_at: p('now') as number,
              blocked_until: p(`first${i}`) as number,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(['realm_id', 'kind', 'key_hash'])
              .doUpdateSet({
                failures: byKind(keys, count),
                last_failure_at: p('now') as number,
                blocked_until: byKind(keys, (k) => sql`cast(${p('now')} as bigint) + ${blockSql(k.policy, count(k))}`),
              })
              .where((eb) =>
                eb.or([
                  eb('login_throttle.blocked_until', '<=', p('now') as number),
                  eb(
                    'login_throttle.last_failure_at',
                    '<',
                    byKind(keys, (k) => sql`cast(${p(`since${at.get(k)!}`)} as bigint)`),
                  ),
                ]),
              ),
          )
          .returning(['kind', 'failures', 'blocked_until']);
      }),
    );

  type Row = { key: ThrottleKey; policy: ThrottlePolicy | undefined };
  const settleStatement = (rows: Row[]) =>
    cached(`settle${JSON.stringify(rows.map((r) => [r.key.kind, r.policy ?? null]))}`, () =>
      prepare<Record<string, unknown>>(db, (p) => {
        // Each row of its own kind: cleared rows drop to 0, released rows give one attempt back.
        // The previous attempt's time is not kept, so its block counts from the latest one: that
        // only errs strict, and never extends the block the reservation set.
        const less = sql<number>`(case when failures > 0 then failures - 1 else 0 end)`;
        const perRow = (pick: (r: Row) => RawBuilder<unknown>): RawBuilder<number> =>
          rows.length === 1
            ? (pick(rows[0]!) as RawBuilder<number>)
            : sql<number>`(case ${sql.join(
                rows.map((r) => sql`when kind = ${sql.lit(r.key.kind)} then ${pick(r)}`),
                sql` `,
              )} end)`;
        return db
          .updateTable('login_throttle')
          .set({
            failures: perRow((r) => (r.policy ? less : sql`0`)),
            blocked_until: perRow((r) => (r.policy ? sql`last_failure_at + ${blockSql(r.policy, less)}` : sql`0`)),
          })
          .where('realm_id', '=', p('realm') as string)
          .where((eb) => eb.or(rows.map((r, i) => eb.and([eb('kind', '=', r.key.kind), eb('key_hash', '=', p(`key${i}`) as string)]))));
      }),
    );

  return { reserveStatement, settleStatement };
}

export function createThrottleRepo(
  db: Db,
): ThrottleStore & { deleteStaleCounters(before: number, now: number): Promise<number>; deleteAllInRealm(realmId: string, trx?: Db): Promise<void> } {
  const { reserveStatement, settleStatement } = statements(db);
  return {
    kind: 'database',

    async reserve(keys, now) {
      if (keys.length === 0) return [];
      const realmId = keys[0]!.key.realmId;
      const args: Record<string, unknown> = { realm: realmId, now };
      keys.forEach((k, i) => {
        args[`key${i}`] = k.key.keyHash;
        args[`since${i}`] = now - k.policy.windowMs;
        args[`first${i}`] = now + blockFor(k.policy, 1); // blockRuns' first run, without building them all
      });
      const won = (await reserveStatement(keys).run<{ kind: string; failures: number; blocked_until: number }>(args)).rows;
      const refusedKinds = keys.filter((k) => !won.some((w) => w.kind === k.key.kind)).map((k) => k.key.kind);
      const held = refusedKinds.length
        ? await db
            .selectFrom('login_throttle')
            .select(['kind', 'blocked_until'])
            .where('realm_id', '=', realmId)
            .where('kind', 'in', refusedKinds)
            .where(
              'key_hash',
              'in',
              keys.filter((k) => refusedKinds.includes(k.key.kind)).map((k) => k.key.keyHash),
            )
            .execute()
        : [];
      return keys.map((k): Reservation => {
        const w = won.find((r) => r.kind === k.key.kind);
        if (w) return { admitted: true, failures: Number(w.failures), blockedUntil: Number(w.blocked_until) };
        return { admitted: false, blockedUntil: Number(held.find((r) => r.kind === k.key.kind)?.blocked_until ?? now) };
      });
    },

    async settle(clear, release, trx) {
      const rows = [...clear.map((key) => ({ key, policy: undefined })), ...release];
      if (rows.length === 0) return;
      const args: Record<string, unknown> = { realm: rows[0]!.key.realmId };
      rows.forEach((r, i) => (args[`key${i}`] = r.key.keyHash));
      await settleStatement(rows).run(args, trx);
    },

    /** Sweep: counters idle since `before` and no longer blocking go. */
    async deleteStaleCounters(before, now) {
      const res = await db.deleteFrom('login_throttle').where('last_failure_at', '<', before).where('blocked_until', '<', now).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    /** Realm deletion (issue 11): the realm's sign-in counters (database store). */
    async deleteAllInRealm(realmId: string, trx: Db = db) {
      await trx.deleteFrom('login_throttle').where('realm_id', '=', realmId).execute();
    },
  };
}

export type ThrottleRepo = ReturnType<typeof createThrottleRepo>;
