/** SQL for realms ("domains" in the console). */
import type { Insertable, Selectable } from 'kysely';
import type { Db, RealmTable } from '../platform/db.js';

export type Realm = Selectable<RealmTable>;

export function createRealmRepo(db: Db) {
  return {
    findRealmById(id: string): Promise<Realm | undefined> {
      return db.selectFrom('realms').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async insertRealm(row: Insertable<RealmTable>, trx: Db = db): Promise<void> {
      await trx.insertInto('realms').values(row).execute();
    },
  };
}

export type RealmRepo = ReturnType<typeof createRealmRepo>;
