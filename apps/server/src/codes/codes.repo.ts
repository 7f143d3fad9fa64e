/** SQL for one-time codes and rate counters when no Redis is configured. Realm-scoped. */
import type { Db } from '../platform/db.js';
import { windowOf, type CheckResult, type CodeAttempt, type CodeKey, type CodeStore, type CounterKey, type NewCode } from './store.js';

const counterKey = (k: CounterKey) => `realm:${k.realmId}:${k.name}:${k.keyHash}:${windowOf(k).index}`;

export function createCodeRepo(db: Db): CodeStore & { deleteStaleCodes(now: number, graceMs: number): Promise<number> } {
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
      if (!a.keep) {
        // The right answer is consumed by one conditional update (never read-then-write).
        const won = await db
          .updateTable('verification_codes')
          .set({ used_at: a.now })
          .where('realm_id', '=', k.realmId)
          .where('purpose', '=', k.purpose)
          .where('target_hash', '=', k.targetHash)
          .where('code_hash', '=', a.codeHash)
          .where('serial_no', '=', a.serialNo)
          .where('used_at', 'is', null)
          .where('attempts', '<', a.maxAttempts)
          .where('expires_at', '>', a.now)
          .returning('subject')
          .executeTakeFirst();
        if (won) return { status: 'ok', subject: won.subject };
      }

      const row = await byKey(k).executeTakeFirst();
      if (!row) return { status: 'missing' };
      if (row.used_at !== null) return { status: 'used' };
      if (row.expires_at <= a.now) return { status: 'expired' };
      if (row.attempts >= a.maxAttempts) return { status: 'locked' };
      // `keep`: a right answer is only looked at; the consuming check comes later.
      if (a.keep && row.code_hash === a.codeHash && row.serial_no === a.serialNo) return { status: 'ok', subject: row.subject };
      await db
        .updateTable('verification_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('realm_id', '=', k.realmId)
        .where('purpose', '=', k.purpose)
        .where('target_hash', '=', k.targetHash)
        .where('code_hash', '=', row.code_hash)
        .where('used_at', 'is', null)
        .execute();
      return { status: row.serial_no === a.serialNo ? 'wrong' : 'mismatch' };
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

    async peekCounters(keys: CounterKey[]): Promise<number[]> {
      if (keys.length === 0) return [];
      const names = keys.map(counterKey);
      const rows = await db.selectFrom('rate_counters').select(['key', 'count']).where('key', 'in', names).execute();
      return names.map((name) => Number(rows.find((r) => r.key === name)?.count ?? 0));
    },

    async clearCounter(k: CounterKey): Promise<void> {
      await db.deleteFrom('rate_counters').where('key', '=', counterKey(k)).execute();
    },

    /** Sweep: codes long expired and counters of past windows go (a periodic job calls this). */
    async deleteStaleCodes(now: number, graceMs: number): Promise<number> {
      const a = await db.deleteFrom('verification_codes').where('expires_at', '<', now - graceMs).executeTakeFirst();
      const b = await db.deleteFrom('rate_counters').where('window_end', '<', now).executeTakeFirst();
      return Number(a.numDeletedRows) + Number(b.numDeletedRows);
    },
  };
}
