/**
 * Service (sub) accounts of one owner (issue 11; directory/service-accounts.*): the page in
 * sub-name order, its count, and the writes that must name the owner as well as the realm
 * (A-39: a service account id under another owner or realm matches nothing). Spread into the
 * account repository, which stays the one writer of `accounts`.
 *
 * Keyset paging on username_norm (`owner/sub`, unique in a realm): a page is the rows after
 * (or before) the boundary name. Compared in byte order on both databases (PostgreSQL
 * `collate "C"`, SQLite BINARY), so a boundary means the same on both. One owner's service
 * accounts are few; the accounts_owner index finds them.
 */
import { PostgresAdapter, sql, type Updateable } from 'kysely';
import type { Db } from '../platform/db.js';
import type { AccountTable } from './accounts.tables.js';

export interface ServicePageQuery {
  /** the start of the sub name, already folded like username_norm */
  prefix?: string | undefined;
  /** username_norm of the boundary row: rows strictly after it, or before it with `backwards` */
  after?: string | undefined;
  backwards?: boolean | undefined;
  limit: number;
}

type ServicePatch = Pick<Updateable<AccountTable>, 'disabled' | 'regist_area' | 'force_password' | 'password_hash'>;

export function serviceAccountQueries(db: Db) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const norm = pg ? sql<string>`username_norm collate "C"` : sql<string>`username_norm`;
  const like = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

  function owned(trx: Db, realmId: string, ownerId: string, prefix?: string) {
    let s = trx.selectFrom('accounts').where('realm_id', '=', realmId).where('owner_id', '=', ownerId).where('kind', '=', 'service');
    // Names hold exactly one '/' (neither a user name nor a sub name has one), so '%/' + prefix
    // matches the sub name's start; a LIKE over the owner's few rows, same on both databases.
    if (prefix) s = s.where('username_norm', 'like', sql<string>`${`%/${like(prefix)}`} escape '\\'`);
    return s;
  }

  return {
    /** One page of an owner's service accounts in sub-name order (backwards: the page before `after`, still in order). */
    async listServices(realmId: string, ownerId: string, q: ServicePageQuery, trx: Db = db) {
      let s = owned(trx, realmId, ownerId, q.prefix).selectAll();
      if (q.after !== undefined) s = s.where(norm, q.backwards ? '<' : '>', q.after);
      const rows = await s
        .orderBy(norm, q.backwards ? 'desc' : 'asc')
        .limit(q.limit)
        .execute();
      return q.backwards ? rows.reverse() : rows;
    },
    async countServices(realmId: string, ownerId: string, prefix?: string, trx: Db = db): Promise<number> {
      const row = await owned(trx, realmId, ownerId, prefix)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Changes a service account of this owner in this realm; false when there is none. */
    async updateService(realmId: string, ownerId: string, id: string, patch: ServicePatch, now: number, trx: Db = db): Promise<boolean> {
      const res = await trx
        .updateTable('accounts')
        .set({ ...patch, updated_at: now })
        .where('realm_id', '=', realmId)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', 'service')
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** Deletes a service account of this owner (its sessions, grants and role bindings go by cascade). */
    async deleteService(realmId: string, ownerId: string, id: string, trx: Db = db): Promise<boolean> {
      const res = await trx
        .deleteFrom('accounts')
        .where('realm_id', '=', realmId)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', 'service')
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },
  };
}
