/**
 * Realms ("domains") for administrators (issue 11): the list a caller may see, create, read,
 * change the domain name and description, delete with everything in it.
 *
 * Who: reading and changing a realm is `domain.get` / `domain.edit` in that realm, decided by
 * the guard before any lookup. Creating and deleting realms are platform acts:
 * `domain.add` / `domain.delete` held in the master realm. Every change records its audit
 * event in its own transaction.
 */
import type { RealmDetail, RealmListResult, RealmSummary, RealmUpdate, realmCreate } from '@umbo/contracts';
import type { z } from 'zod';
import type { AccountRepo } from '../accounts/accounts.repo.js';
import type { AuditService } from '../audit/audit.service.js';
import { MASTER_REALM, type PermService, type Principal } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import { isUniqueViolation, type Db, type Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { readRealmSettings } from './realm-settings.js';
import { toView, type Caller, type RealmSettingsService } from './realm-settings.service.js';
import type { Realm, RealmRepo } from './realms.repo.js';

/** Removes one area's rows of a realm inside the deleting transaction (each repo's deleteAllInRealm). */
export type RealmContentDeleter = (realmId: string, trx: Db) => Promise<unknown>;

/** Adds an upper area's part of a new realm inside the creating transaction. */
export type RealmCreatedHook = (realmId: string, trx: Db) => Promise<unknown>;

export interface AdminCaller extends Caller {
  principal: Principal;
}

type CreateInput = z.output<typeof realmCreate>;

const refused = (perm: string) => fail('FORBIDDEN', { service: 'users', resource: 'domain', perm });

export function createRealmsService(deps: {
  realms: RealmRepo;
  accounts: Pick<AccountRepo, 'countAccounts'>;
  perm: Pick<PermService, 'allows'>;
  settings: Pick<RealmSettingsService, 'initial'>;
  /** every other area's rows of a realm, in the order they go (composition/services.ts) */
  contents: readonly RealmContentDeleter[];
  /** what upper areas add to a new realm, in its creating transaction (the default client, issue 12) */
  onCreated?: readonly RealmCreatedHook[] | undefined;
  clock: Clock;
  transact: Transact;
  audit: AuditService;
}) {
  const { realms, accounts, perm, clock, transact, audit } = deps;

  const summary = async (r: Realm): Promise<RealmSummary> => ({
    realmId: r.id,
    domain: r.name,
    description: r.description,
    backend_type: readRealmSettings(r.settings).backend_type,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    accountCount: await accounts.countAccounts(r.id),
  });

  const isPlatformAdmin = (p: Principal) => p.roles.some((r) => r.id === 'admin' && r.scopeRealmId === MASTER_REALM);

  /** Every realm for the platform's administrators; else the realms where the caller holds domain.query. */
  async function list(p: Principal, q: { q?: string | undefined; limit: number; offset: number }): Promise<RealmListResult> {
    let ids: string[] | undefined;
    if (!isPlatformAdmin(p)) {
      ids = [...new Set(p.roles.map((r) => r.scopeRealmId))].filter((id) => perm.allows(p, 'domain', 'query', id));
      if (ids.length === 0) throw refused('query');
    }
    const [rows, total] = await Promise.all([realms.listRealms({ q: q.q, ids, limit: q.limit, offset: q.offset }), realms.countRealms({ q: q.q, ids })]);
    return { items: await Promise.all(rows.map(summary)), total };
  }

  async function detail(realmId: string, r?: Realm): Promise<RealmDetail> {
    const realm = r ?? (await realms.findRealmById(realmId));
    assertThat(realm, 'NOT_FOUND');
    return { ...(await summary(realm)), settings: toView(realm.id, readRealmSettings(realm.settings)) };
  }

  async function create(input: CreateInput, caller: AdminCaller): Promise<RealmDetail> {
    if (!perm.allows(caller.principal, 'domain', 'add', MASTER_REALM)) throw refused('add');
    // Checked before the insert so the answer names the problem; the key decides a race.
    assertThat(!(await realms.findRealmById(input.realmId)), 'REALM_EXISTS', { field: 'realmId' });
    const settings = deps.settings.initial(input.realmId, input.settings);
    const now = clock.now();
    const row = { id: input.realmId, name: input.domain, description: input.description, settings: JSON.stringify(settings), created_at: now, updated_at: now };
    try {
      await transact(async (trx) => {
        await realms.insertRealm(row, trx);
        for (const hook of deps.onCreated ?? []) await hook(row.id, trx);
        const changes = ['realmId', 'domain', 'description', ...Object.keys(input.settings ?? {}).map((k) => `settings.${k}`)];
        await audit.record(
          {
            realmId: row.id,
            actor: caller.actor,
            action: 'realm.create',
            target: { type: 'realm', id: row.id, name: row.name },
            result: 'ok',
            request: caller.request,
            changes,
          },
          trx,
        );
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('REALM_EXISTS', { field: 'realmId' });
      throw err;
    }
    return detail(row.id);
  }

  async function update(realmId: string, patch: RealmUpdate, caller: Caller): Promise<RealmDetail> {
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    const changes = [
      ...(patch.domain !== undefined && patch.domain !== realm.name ? ['domain'] : []),
      ...(patch.description !== undefined && patch.description !== realm.description ? ['description'] : []),
    ];
    if (changes.length > 0) {
      await transact(async (trx) => {
        assertThat(await realms.updateRealm(realmId, { name: patch.domain, description: patch.description }, clock.now(), trx), 'NOT_FOUND');
        await audit.record(
          {
            realmId,
            actor: caller.actor,
            action: 'realm.update',
            target: { type: 'realm', id: realmId, name: patch.domain ?? realm.name },
            result: 'ok',
            request: caller.request,
            changes,
          },
          trx,
        );
      });
    }
    return detail(realmId);
  }

  /**
   * `master` never goes (it holds the platform's administrators). A realm with accounts goes
   * only with the explicit second confirmation naming the real count (checked again inside
   * the transaction, so an account added meanwhile stops it). Everything of the realm is
   * deleted in one transaction: all of it, or nothing.
   */
  async function remove(realmId: string, body: { confirmDeleteEverything?: boolean | undefined; accountCount?: number | undefined }, caller: AdminCaller) {
    if (!perm.allows(caller.principal, 'domain', 'delete', MASTER_REALM)) throw refused('delete');
    assertThat(realmId !== MASTER_REALM, 'REALM_PROTECTED');
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    return transact(
      async (trx) => {
        const accountCount = await accounts.countAccounts(realmId, {}, trx);
        if (accountCount > 0 && !(body.confirmDeleteEverything === true && body.accountCount === accountCount)) {
          throw fail('REALM_NOT_EMPTY', { accountCount });
        }
        for (const deleteAllInRealm of deps.contents) await deleteAllInRealm(realmId, trx);
        assertThat(await realms.deleteRealm(realmId, trx), 'NOT_FOUND');
        // Kept in master's trail: the platform's administrators did it, and the realm's own
        // trail is no longer anybody's to read once the realm is gone.
        await audit.record(
          {
            realmId: MASTER_REALM,
            actor: caller.actor,
            action: 'realm.delete',
            target: { type: 'realm', id: realmId, name: realm.name },
            result: 'ok',
            request: caller.request,
            detail: { accountCount },
          },
          trx,
        );
        return { realmId, accountCount };
      },
      { large: true },
    );
  }

  return { list, detail, create, update, remove };
}

export type RealmsService = ReturnType<typeof createRealmsService>;
