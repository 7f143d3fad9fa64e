/** SQL for sign-in failure counters (the database ThrottleStore). */
import { sql } from 'kysely';
import type { Db } from '../../platform/db.js';
import type { ThrottleState, ThrottleStore } from './store.js';

export function createThrottleRepo(db: Db): ThrottleStore & { deleteStaleCounters(before: number, now: number): Promise<number> } {
  return {
    kind: 'database',
    async get(k) {
      const row = await db
        .selectFrom('login_throttle')
        .select(['failures', 'last_failure_at', 'blocked_until'])
        .where('realm_id', '=', k.realmId)
        .where('kind', '=', k.kind)
        .where('key_hash', '=', k.keyHash)
        .executeTakeFirst();
      return row ? ({ failures: Number(row.failures), lastFailureAt: Number(row.last_failure_at), blockedUntil: Number(row.blocked_until) } satisfies ThrottleState) : undefined;
    },
    async recordFailure(k, now, windowMs) {
      // One statement (insert … on conflict … returning) so parallel failures all count.
      const row = await db
        .insertInto('login_throttle')
        .values({ realm_id: k.realmId, kind: k.kind, key_hash: k.keyHash, failures: 1, last_failure_at: now, blocked_until: 0 })
        .onConflict((oc) =>
          oc.columns(['realm_id', 'kind', 'key_hash']).doUpdateSet({
            failures: sql`case when login_throttle.last_failure_at < ${now - windowMs} then 1 else login_throttle.failures + 1 end`,
            last_failure_at: now,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow();
      return Number(row.failures);
    },
    async block(k, until) {
      await db
        .updateTable('login_throttle')
        .set({ blocked_until: until })
        .where('realm_id', '=', k.realmId)
        .where('kind', '=', k.kind)
        .where('key_hash', '=', k.keyHash)
        .where('blocked_until', '<', until)
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
