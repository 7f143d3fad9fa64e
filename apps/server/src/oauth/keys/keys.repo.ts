/**
 * SQL for a realm's signing keys: the one writer of `oauth_signing_keys` (issue 12).
 * Private keys arrive here already sealed (keys.service.ts); this file never sees a PEM.
 */
import type { Selectable } from 'kysely';
import { isUniqueViolation, type Db } from '../../platform/db.js';
import type { OAuthSigningKeyTable } from '../oauth.tables.js';

export type SigningKeyRow = Selectable<OAuthSigningKeyTable>;

export function createSigningKeyRepo(db: Db) {
  return {
    /** Every key of the realm still published (not yet removed), oldest generation first. */
    listByRealm(realmId: string, trx: Db = db): Promise<SigningKeyRow[]> {
      return trx.selectFrom('oauth_signing_keys').selectAll().where('realm_id', '=', realmId).orderBy('alg').orderBy('generation').execute();
    },
    /** False when (realm, alg, generation) or the kid is taken: another instance inserted first (migration 0024). */
    async insert(row: SigningKeyRow, trx: Db = db): Promise<boolean> {
      try {
        await trx.insertInto('oauth_signing_keys').values(row).execute();
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    /** Marks the keys of (realm, alg) signing before `kid` as retired, once: a set retired_at stays. */
    async retireOlder(realmId: string, alg: string, generation: number, retiredAt: number, removeAfter: number, trx: Db = db): Promise<void> {
      await trx
        .updateTable('oauth_signing_keys')
        .set({ retired_at: retiredAt, remove_after: removeAfter })
        .where('realm_id', '=', realmId)
        .where('alg', '=', alg)
        .where('generation', '<', generation)
        .where('retired_at', 'is', null)
        .execute();
    },
    /** Drops the keys whose tokens have all expired (AS-29). */
    async deleteRemovable(realmId: string, now: number, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('oauth_signing_keys').where('realm_id', '=', realmId).where('remove_after', '<=', now).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('oauth_signing_keys').where('realm_id', '=', realmId).execute();
    },
  };
}

export type SigningKeyRepo = ReturnType<typeof createSigningKeyRepo>;
