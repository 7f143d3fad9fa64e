/** SQL for sign-in failure counters (the database ThrottleStore). */
import { sql } from 'kysely';
import type { Db } from '../../platform/db.js';
import type { ThrottleState, ThrottleStore } from './store.js';

export function createThrottleRepo(db: Db): ThrottleStore & { deleteStaleCounters(before: number, now: number): Promise<number> } {
  const getMany: ThrottleStore['getMany'] = async (keys) => {
    if (keys.length === 0) return [];
    const realmId = keys[0]!.realmId;
    const rows = await db
      .selectFrom('login_throttle')
      .select(['kind', 'key_hash', 'failures', 'last_failure_at', 'blocked_until'])
      .where('realm_id', '=', realmId)
      // both columns named so the primary key (realm_id, kind, key_hash) finds each row
      .where('kind', 'in', [...new Set(keys.map((k) => k.kind))])
      .where('key_hash', 'in', keys.map((k) => k.keyHash))
      .execute();
    return keys.map((k) => {
      if (k.realmId !== realmId) throw new Error('getMany: keys of one realm only');
      const row = rows.find((r) => r.kind === k.kind && r.key_hash === k.keyHash);
      return row ? ({ failures: Number(row.failures), lastFailureAt: Number(row.last_failure_at), blockedUntil: Number(row.blocked_until) } satisfies ThrottleState) : undefined;
    });
  };
  return {
    kind: 'database',
    getMany,
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
