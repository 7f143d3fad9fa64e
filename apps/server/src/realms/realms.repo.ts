/** SQL for realms ("domains" in the console): the one writer of the `realms` and `realm_branding` tables. */
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../platform/db.js';
import type { RealmBrandingTable, RealmTable } from './realms.tables.js';

export type Realm = Selectable<RealmTable>;
export type RealmBranding = Selectable<RealmBrandingTable>;

export interface RealmListFilter {
  /** prefix of the id or of the domain name */
  q?: string | undefined;
  /** only these realms (a caller who may see some realms only) */
  ids?: readonly string[] | undefined;
}

export function createRealmRepo(db: Db) {
  function filtered(trx: Db, f: RealmListFilter) {
    let s = trx.selectFrom('realms');
    if (f.ids) s = s.where('id', 'in', f.ids.length ? [...f.ids] : ['']);
    if (f.q) {
      // Prefix match, the user's text escaped: a '%' typed is a '%' searched.
      const like = `${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      s = s.where((eb) => eb.or([eb('id', 'like', sql<string>`${like} escape '\\'`), eb(eb.fn('lower', ['name']), 'like', sql<string>`${like} escape '\\'`)]));
    }
    return s;
  }

  return {
    findRealmById(id: string, trx: Db = db): Promise<Realm | undefined> {
      return trx.selectFrom('realms').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async insertRealm(row: Insertable<RealmTable>, trx: Db = db): Promise<void> {
      await trx.insertInto('realms').values(row).execute();
    },
    /** A page of realms ordered by id (realm ids are unique, so the order is stable). */
    listRealms(f: RealmListFilter & { limit: number; offset: number }, trx: Db = db): Promise<Realm[]> {
      return filtered(trx, f).selectAll().orderBy('id').limit(f.limit).offset(f.offset).execute();
    },
    async countRealms(f: RealmListFilter, trx: Db = db): Promise<number> {
      const row = await filtered(trx, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** The domain name and description; the id never changes. False when the realm is gone. */
    async updateRealm(id: string, patch: { name?: string | undefined; description?: string | undefined }, now: number, trx: Db = db): Promise<boolean> {
      const set = {
        updated_at: now,
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
      };
      const res = await trx.updateTable('realms').set(set).where('id', '=', id).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /**
     * Replaces the settings only if they are still `expected` (compare-and-set): a concurrent
     * change is never overwritten with a stale copy. False when another write came first.
     */
    async updateRealmSettings(id: string, expected: string, settings: string, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx.updateTable('realms').set({ settings, updated_at: now }).where('id', '=', id).where('settings', '=', expected).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** Replaces the settings whatever they were (an import's all-or-nothing transaction). */
    async replaceRealm(row: Pick<Realm, 'id' | 'name' | 'description' | 'settings' | 'updated_at'>, trx: Db = db): Promise<void> {
      await trx
        .updateTable('realms')
        .set({ name: row.name, description: row.description, settings: row.settings, updated_at: row.updated_at })
        .where('id', '=', row.id)
        .execute();
    },
    /** The realm row and its branding; the other areas' rows go first (realms.service.ts). */
    async deleteRealm(id: string, trx: Db = db): Promise<boolean> {
      await trx.deleteFrom('realm_branding').where('realm_id', '=', id).execute();
      const res = await trx.deleteFrom('realms').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },

    // ─── branding ──────────────────────────────────────────────────────────────────────
    findBranding(realmId: string, kind: RealmBranding['kind'], trx: Db = db): Promise<RealmBranding | undefined> {
      return trx.selectFrom('realm_branding').selectAll().where('realm_id', '=', realmId).where('kind', '=', kind).executeTakeFirst();
    },
    async putBranding(row: RealmBranding, trx: Db = db): Promise<void> {
      await trx
        .insertInto('realm_branding')
        .values(row)
        .onConflict((oc) => oc.columns(['realm_id', 'kind']).doUpdateSet({ content_type: row.content_type, data: row.data, updated_at: row.updated_at }))
        .execute();
    },
    async deleteBranding(realmId: string, kind: RealmBranding['kind'], trx: Db = db): Promise<void> {
      await trx.deleteFrom('realm_branding').where('realm_id', '=', realmId).where('kind', '=', kind).execute();
    },
  };
}

export type RealmRepo = ReturnType<typeof createRealmRepo>;
