/** SQL for sign-in attempt counters (the database ThrottleStore), one statement per decision. */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db.js';
import { blockRuns, type ThrottlePolicy } from './defaults.js';
import type { ThrottleKey, ThrottleStore } from './store.js';

/** blockFor(policy, count) as a CASE over a count expression, from the policy's constants. */
function blockSql(policy: ThrottlePolicy, count: RawBuilder<number>): RawBuilder<number> {
  const { runs, beyond } = blockRuns(policy);
  const whens = runs.map(([upTo, ms]) => sql`when ${count} <= ${sql.lit(upTo)} then ${sql.lit(ms)}`);
  return sql<number>`(case ${sql.join(whens, sql` `)} else ${sql.lit(beyond)} end)`;
}

export function createThrottleRepo(db: Db): ThrottleStore & { deleteStaleCounters(before: number, now: number): Promise<number> } {
  const row = (k: ThrottleKey) =>
    db.selectFrom('login_throttle').select(['failures', 'blocked_until']).where('realm_id', '=', k.realmId).where('kind', '=', k.kind).where('key_hash', '=', k.keyHash);

  return {
    kind: 'database',

    async reserve(k, now, policy) {
      // One statement: the row lock (PostgreSQL) or the single writer (SQLite) makes parallel
      // attempts see each other's counts, and a blocked key is left untouched (WHERE below).
      const count = sql<number>`(case when login_throttle.last_failure_at < ${now - policy.windowMs} then 1 else login_throttle.failures + 1 end)`;
      const won = await db
        .insertInto('login_throttle')
        .values({ realm_id: k.realmId, kind: k.kind, key_hash: k.keyHash, failures: 1, last_failure_at: now, blocked_until: now + (blockRuns(policy).runs[0]![1]) })
        .onConflict((oc) =>
          oc
            .columns(['realm_id', 'kind', 'key_hash'])
            .doUpdateSet({ failures: count, last_failure_at: now, blocked_until: sql`cast(${now} as bigint) + ${blockSql(policy, count)}` })
            .where((eb) => eb.or([eb('login_throttle.blocked_until', '<=', now), eb('login_throttle.last_failure_at', '<', now - policy.windowMs)])),
        )
        .returning(['failures', 'blocked_until'])
        .executeTakeFirst();
      if (won) return { admitted: true, failures: Number(won.failures), blockedUntil: Number(won.blocked_until) };
      const held = await row(k).executeTakeFirst();
      return { admitted: false, blockedUntil: Number(held?.blocked_until ?? now) };
    },

    async release(k, policy) {
      // The previous attempt's time is not kept: its block is counted from the latest one,
      // which only errs strict, and never extends the block the reservation set.
      await db
        .updateTable('login_throttle')
        .set({ failures: sql`failures - 1`, blocked_until: sql`last_failure_at + ${blockSql(policy, sql<number>`(failures - 1)`)}` })
        .where('realm_id', '=', k.realmId)
        .where('kind', '=', k.kind)
        .where('key_hash', '=', k.keyHash)
        .where('failures', '>', 0)
        .execute();
    },

    async clear(k) {
      await db.deleteFrom('login_throttle').where('realm_id', '=', k.realmId).where('kind', '=', k.kind).where('key_hash', '=', k.keyHash).execute();
    },

    /** Sweep: counters idle since `before` and no longer blocking go. */
    async deleteStaleCounters(before, now) {
      const res = await db.deleteFrom('login_throttle').where('last_failure_at', '<', before).where('blocked_until', '<', now).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
