/**
 * "Refresh from backend" (issue 14): selected shadow accounts of a realm behind an IT-interface
 * backend take the backend's current user name, e-mail and phone — the lookups of
 * federation/it (getUsersInfo per id for `ecogloble`, getUserInfoListByUcUids for `default`).
 *
 * Order matters for "no partial write": every id is asked of the backend first; only when all
 * answers are in does one transaction write the changes with one audit event per account. A
 * backend failure is 1303 before anything is written. The disabled flag is not touched here:
 * it is an enable/disable decision with its own permission and session ending (the next
 * sign-in through the backend still carries it over, shadow.ts).
 */
import type { PersonRefreshItem, PersonRefreshResult, PersonRefreshState } from '@umbo/contracts';
import type { AccountRepo } from '../../accounts/accounts.repo.js';
import type { PersonListRow } from '../../accounts/accounts.list.repo.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { ItUser } from './ecogloble.js';
import { itBackendOf } from '../../realms/realm-settings.backend.js';
import type { ItFederation } from './it.service.js';
import { phoneOf } from './shadow.js';
import type { ShadowLinkRepo } from './shadow.repo.js';
import type { Clock } from '../../platform/clock.js';
import { isUniqueViolation, type Transact } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import type { FlowSettings } from '../../realms/realm-policy.js';
import type { AdminCall, PersonAdminService } from '../../directory/person-admin.service.js';

type Field = 'username' | 'email' | 'phone';
type Found = Pick<PersonListRow, 'id' | 'username' | 'username_norm' | 'email' | 'phone'>;

export interface PersonRefreshDeps {
  settingsOf(realmId: string): Promise<FlowSettings>;
  federation: Pick<ItFederation, 'lookup'>;
  accounts: Pick<
    AccountRepo,
    'findPersonsByIds' | 'findAccountByUsername' | 'findAccountByEmail' | 'findAccountByPhone' | 'renameAccount' | 'setPersonAddresses'
  >;
  links: Pick<ShadowLinkRepo, 'findLinksOfAccounts'>;
  audit: Pick<AuditService, 'record'>;
  admin: Pick<PersonAdminService, 'assertNotWider'>;
  clock: Clock;
  transact: Transact;
}

/** What the backend's answer changes of the account, field by field (shadow.ts maps them the same way). */
function patchOf(a: Found, u: ItUser): Partial<Record<Field, string | null>> {
  const next = { username: u.username, email: u.email ?? null, phone: phoneOf(u) };
  const patch: Partial<Record<Field, string | null>> = {};
  for (const f of ['username', 'email', 'phone'] as const) if (a[f] !== next[f]) patch[f] = next[f];
  return patch;
}

export function createPersonRefreshService(d: PersonRefreshDeps) {
  async function backendOf(realmId: string) {
    const settings = await d.settingsOf(realmId);
    return { settings, backend: itBackendOf(settings) };
  }

  async function state(realmId: string): Promise<PersonRefreshState> {
    return { backend: (await backendOf(realmId)).backend?.type ?? null };
  }

  /** The first field of `patch` another account of the realm (or an earlier one of this batch) holds. */
  async function takenField(realmId: string, self: string, patch: Partial<Record<Field, string | null>>, claimed: Set<string>): Promise<Field | undefined> {
    const holders = {
      username: (v: string) => d.accounts.findAccountByUsername(realmId, v),
      email: (v: string) => d.accounts.findAccountByEmail(realmId, v),
      phone: (v: string) => d.accounts.findAccountByPhone(realmId, v),
    };
    for (const f of ['username', 'email', 'phone'] as const) {
      const v = patch[f];
      if (!v) continue;
      if (claimed.has(`${f}:${v.toLowerCase()}`)) return f;
      const other = await holders[f](v);
      if (other && other.id !== self) return f;
    }
    return undefined;
  }

  async function refresh(realmId: string, ids: readonly string[], call: AdminCall): Promise<PersonRefreshResult> {
    const { settings, backend } = await backendOf(realmId);
    // a clear answer instead of a silent "nothing found": this realm keeps its accounts itself
    if (!backend) throw fail('INVALID_PARAMETER', { field: 'realmId', reason: 'validation.no_it_backend' });
    const wanted = [...new Set(ids)];
    const persons = await d.accounts.findPersonsByIds(realmId, wanted);
    const links = await d.links.findLinksOfAccounts(
      realmId,
      persons.map((p) => p.id),
    );
    const linkOf = new Map(links.map((l) => [l.account_id, l]));
    const linked = persons.filter((p) => linkOf.has(p.id));
    // nobody rewrites the name or addresses of an account holding more than they do
    for (const p of linked) await d.admin.assertNotWider(call, { id: p.id, realm_id: realmId }, 'edit');

    const users = await d.federation.lookup(
      realmId,
      settings,
      linked.map((p) => p.id),
    );
    const byBackendId = new Map(users.map((u) => [u.userId, u]));

    const outcome = new Map<string, PersonRefreshItem>();
    const writes: { a: Found; patch: Partial<Record<Field, string | null>> }[] = [];
    const claimed = new Set<string>();
    for (const a of linked) {
      const u = byBackendId.get(linkOf.get(a.id)!.backend_user_id);
      if (!u) {
        outcome.set(a.id, { id: a.id, result: 'not_found' });
        continue;
      }
      const patch = patchOf(a, u);
      const changes = Object.keys(patch) as Field[];
      if (changes.length === 0) {
        outcome.set(a.id, { id: a.id, result: 'unchanged' });
        continue;
      }
      const taken = await takenField(realmId, a.id, patch, claimed);
      if (taken) {
        outcome.set(a.id, { id: a.id, result: 'conflict', field: taken });
        continue;
      }
      for (const f of changes) if (patch[f]) claimed.add(`${f}:${patch[f]!.toLowerCase()}`);
      writes.push({ a, patch });
      outcome.set(a.id, { id: a.id, result: 'updated', changes });
    }

    if (writes.length > 0) {
      try {
        await d.transact(async (trx) => {
          const now = d.clock.now();
          for (const { a, patch } of writes) {
            // through the repository, so username_norm / email_norm and service account names stay in step
            if (patch.username !== undefined) await d.accounts.renameAccount(realmId, a.id, a.username_norm, patch.username!, now, trx);
            const addresses = { ...(patch.email !== undefined ? { email: patch.email } : {}), ...(patch.phone !== undefined ? { phone: patch.phone } : {}) };
            if (Object.keys(addresses).length > 0) await d.accounts.setPersonAddresses(realmId, a.id, addresses, now, trx);
            await d.audit.record(
              {
                realmId,
                actor: call.actor,
                action: 'account.refresh',
                target: { type: 'account', id: a.id, name: patch.username ?? a.username },
                result: 'ok',
                request: call.request,
                changes: Object.keys(patch),
                detail: { backend: backend.type, bulk: wanted.length > 1 },
              },
              trx,
            );
          }
        });
      } catch (err) {
        // another request took a name or address between the check and the write: nothing was written
        if (isUniqueViolation(err)) throw fail('USER_EXISTS', { reason: 'refresh_conflict' });
        throw err;
      }
    }
    return { backend: backend.type, items: wanted.map((id) => outcome.get(id) ?? { id, result: 'not_linked' }) };
  }

  return { state, refresh };
}

export type PersonRefreshService = ReturnType<typeof createPersonRefreshService>;
