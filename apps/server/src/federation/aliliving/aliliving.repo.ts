/** SQL for the Ali Living links (issue 14): one row per (realm, account). The table's one writer. */
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db.js';
import type { AliLivingLinkTable } from './aliliving.tables.js';

export type AliLivingLinkRow = Selectable<AliLivingLinkTable>;

/** Numbers come back as strings from PostgreSQL's bigint. */
function normalise(r: AliLivingLinkRow): AliLivingLinkRow {
  return {
    ...r,
    linked_at: r.linked_at === null ? null : Number(r.linked_at),
    attempts: Number(r.attempts),
    last_try_at: Number(r.last_try_at),
    next_try_at: r.next_try_at === null ? null : Number(r.next_try_at),
  };
}

export function createAliLivingRepo(db: Db) {
  /**
   * One statement either way, so two tries at once cannot both insert. A failure never
   * overwrites a link made meanwhile (the retry job and a sign-in may race).
   */
  async function save(row: AliLivingLinkRow, trx: Db): Promise<void> {
    const { realm_id: _r, account_id: _a, ...rest } = row;
    await trx
      .insertInto('aliliving_links')
      .values(row)
      .onConflict((oc) => {
        const update = oc.columns(['realm_id', 'account_id']).doUpdateSet(rest);
        return row.identity_id === null ? update.where('aliliving_links.identity_id', 'is', null) : update;
      })
      .execute();
  }

  return {
    async findLink(realmId: string, accountId: string, trx: Db = db): Promise<AliLivingLinkRow | undefined> {
      const r = await trx.selectFrom('aliliving_links').selectAll().where('realm_id', '=', realmId).where('account_id', '=', accountId).executeTakeFirst();
      return r && normalise(r);
    },
    async recordLinked(realmId: string, accountId: string, identityId: string, now: number, attempts: number, trx: Db = db): Promise<void> {
      await save(
        { realm_id: realmId, account_id: accountId, identity_id: identityId, linked_at: now, last_error: null, attempts, last_try_at: now, next_try_at: null },
        trx,
      );
    },
    /** A failed try: the identity stays unknown, the error is kept, the next try is scheduled. */
    async recordFailure(realmId: string, accountId: string, error: string, now: number, attempts: number, nextTryAt: number, trx: Db = db): Promise<void> {
      await save(
        {
          realm_id: realmId,
          account_id: accountId,
          identity_id: null,
          linked_at: null,
          last_error: error.slice(0, 300),
          attempts,
          last_try_at: now,
          next_try_at: nextTryAt,
        },
        trx,
      );
    },
    /** Unlinked rows whose next try is due, oldest first. */
    async listDue(now: number, limit: number, trx: Db = db): Promise<AliLivingLinkRow[]> {
      const rows = await trx
        .selectFrom('aliliving_links')
        .selectAll()
        .where('identity_id', 'is', null)
        .where('next_try_at', '<=', now)
        .orderBy('next_try_at')
        .limit(limit)
        .execute();
      return rows.map(normalise);
    },
    /** Realm deletion (issue 11): the realm's links. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('aliliving_links').where('realm_id', '=', realmId).execute();
    },
  };
}

export type AliLivingRepo = ReturnType<typeof createAliLivingRepo>;
