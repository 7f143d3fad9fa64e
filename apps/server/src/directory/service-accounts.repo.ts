/**
 * SQL for what a service account has beyond its `accounts` row: description and grants
 * (the one writer of `service_accounts`). Every read and write names the realm.
 */
import type { Db } from '../platform/db.js';
import type { PermissionGrant } from '../perm/builtin-roles.js';
import './service-accounts.tables.js';

export interface ServiceProfile {
  description: string;
  grants: PermissionGrant[];
}

/** What deciding a service account's permissions needs, read in one query (perm.service loadPrincipal). */
export interface ServicePrincipalSource {
  grants: PermissionGrant[];
  /** false when the owner is gone, disabled or not a person: the service account then holds nothing beyond its own pages */
  ownerActive: boolean;
}

function parseGrants(json: string | null | undefined): PermissionGrant[] {
  if (!json) return [];
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? (parsed as PermissionGrant[]) : [];
  } catch {
    return [];
  }
}

export function createServiceAccountRepo(db: Db) {
  /** Insert the row or change the given columns of it; the other columns keep their values. */
  async function save(
    key: { realmId: string; accountId: string; ownerId: string },
    patch: { description?: string; grants?: PermissionGrant[] },
    now: number,
    trx: Db,
  ): Promise<void> {
    const grants = patch.grants ? JSON.stringify(patch.grants) : undefined;
    const set = { ...(patch.description !== undefined ? { description: patch.description } : {}), ...(grants ? { grants } : {}), updated_at: now };
    await trx
      .insertInto('service_accounts')
      .values({
        account_id: key.accountId,
        realm_id: key.realmId,
        owner_id: key.ownerId,
        description: patch.description ?? '',
        grants: grants ?? '[]',
        updated_at: now,
      })
      .onConflict((oc) => oc.column('account_id').doUpdateSet(set))
      .execute();
  }

  return {
    saveServiceProfile: (key: { realmId: string; accountId: string; ownerId: string }, patch: { description?: string }, now: number, trx: Db = db) =>
      save(key, patch, now, trx),
    saveServiceGrants: (key: { realmId: string; accountId: string; ownerId: string }, grants: PermissionGrant[], now: number, trx: Db = db) =>
      save(key, { grants }, now, trx),

    async findServiceProfile(realmId: string, accountId: string, trx: Db = db): Promise<ServiceProfile> {
      const row = await trx
        .selectFrom('service_accounts')
        .select(['description', 'grants'])
        .where('realm_id', '=', realmId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return { description: row?.description ?? '', grants: parseGrants(row?.grants) };
    },

    /** Descriptions of several service accounts of a realm (a list page), by account id. */
    async findServiceDescriptions(realmId: string, accountIds: string[], trx: Db = db): Promise<Map<string, string>> {
      if (accountIds.length === 0) return new Map();
      const rows = await trx
        .selectFrom('service_accounts')
        .select(['account_id', 'description'])
        .where('realm_id', '=', realmId)
        .where('account_id', 'in', accountIds)
        .execute();
      return new Map(rows.map((r) => [r.account_id, r.description]));
    },

    /**
     * The grants of a service account and whether its owner still stands (an enabled person
     * of the same realm), in one query: this runs on every call a service account makes.
     */
    async findServicePrincipalSource(realmId: string, accountId: string, ownerId: string, trx: Db = db): Promise<ServicePrincipalSource> {
      const row = await trx
        .selectFrom('accounts as owner')
        .leftJoin('service_accounts as s', (j) => j.on('s.account_id', '=', accountId).on('s.realm_id', '=', realmId).on('s.owner_id', '=', ownerId))
        .select(['owner.kind', 'owner.disabled', 's.grants'])
        .where('owner.realm_id', '=', realmId)
        .where('owner.id', '=', ownerId)
        .executeTakeFirst();
      if (!row) return { grants: [], ownerActive: false };
      return { grants: parseGrants(row.grants), ownerActive: row.kind === 'person' && !row.disabled };
    },

    /** Every service account's description and grants in a realm, by account id (realm export). */
    async listServiceProfiles(realmId: string, trx: Db = db): Promise<Map<string, ServiceProfile>> {
      const rows = await trx.selectFrom('service_accounts').select(['account_id', 'description', 'grants']).where('realm_id', '=', realmId).execute();
      return new Map(rows.map((r) => [r.account_id, { description: r.description, grants: parseGrants(r.grants) }]));
    },

    /** Realm deletion: every service account row of the realm. */
    async deleteAllInRealm(realmId: string, trx: Db = db): Promise<number> {
      const res = await trx.deleteFrom('service_accounts').where('realm_id', '=', realmId).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export type ServiceAccountRepo = ReturnType<typeof createServiceAccountRepo>;
