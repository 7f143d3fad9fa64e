/** SQL for realms ("domains" in the console): the one writer of the `realms` table. */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../platform/db.js';
import type { RealmTable } from './realms.tables.js';

export type Realm = Selectable<RealmTable>;

export function createRealmRepo(db: Db) {
  return {
    findRealmById(id: string, trx: Db = db): Promise<Realm | undefined> {
      return trx.selectFrom('realms').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async insertRealm(row: Insertable<RealmTable>, trx: Db = db): Promise<void> {
      await trx.insertInto('realms').values(row).execute();
    },
    /**
     * Replaces the settings only if they are still `expected` (compare-and-set): a concurrent
     * change is never overwritten with a stale copy. False when another write came first.
     */
    async updateRealmSettings(id: string, expected: string, settings: string, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx.updateTable('realms').set({ settings, updated_at: now }).where('id', '=', id).where('settings', '=', expected).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
  };
}

export type RealmRepo = ReturnType<typeof createRealmRepo>;
