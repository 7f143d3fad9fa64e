/**
 * Bulk enable, disable and delete of selected person accounts (issue 11): at most
 * PERSON_LIMITS.bulkMax ids, one transaction, one audit event per account changed. Ids that
 * are not person accounts of the realm are answered as notFound and left alone; the
 * whole call is refused, with nothing changed, when the selection holds the caller's own
 * account (1042) or an account holding more than the caller (1003, A-40).
 */
import type { PersonBulkResult } from '@umbo/contracts';
import type { AccountRepo } from '../accounts/accounts.repo.js';
import type { AuditService } from '../audit/audit.service.js';
import type { SessionRepo } from '../auth/sessions.repo.js';
import type { Clock } from '../platform/clock.js';
import type { Transact } from '../platform/db.js';
import type { AdminCall, PersonAdminService } from './person-admin.service.js';

export type BulkAction = 'enable' | 'disable' | 'delete';

export interface PersonBulkDeps {
  accounts: Pick<AccountRepo, 'findPersonsByIds' | 'setPersonsDisabled' | 'deletePersons'>;
  audit: Pick<AuditService, 'record'>;
  sessions: Pick<SessionRepo, 'revokeAccountSessions'>;
  admin: Pick<PersonAdminService, 'assertNotWider' | 'assertNotSelf'>;
  clock: Clock;
  transact: Transact;
}

export function createPersonBulkService(deps: PersonBulkDeps) {
  const { accounts, audit, sessions, admin, clock, transact } = deps;

  async function run(realmId: string, action: BulkAction, ids: readonly string[], call: AdminCall): Promise<PersonBulkResult> {
    const wanted = [...new Set(ids)];
    const found = await accounts.findPersonsByIds(realmId, wanted);
    const known = new Set(found.map((r) => r.id));
    for (const r of found) admin.assertNotSelf(call, r.id, action);
    for (const r of found) await admin.assertNotWider(call, { id: r.id, realm_id: realmId }, action);
    const targets = found.map((r) => r.id);
    const changed = await transact(async (trx) => {
      const now = clock.now();
      // Only what this statement changed is counted and recorded: an account another request
      // deleted meanwhile is not deleted (or disabled) twice (issue 11 race test).
      const ids = new Set(
        action === 'delete'
          ? await accounts.deletePersons(realmId, targets, trx)
          : await accounts.setPersonsDisabled(realmId, targets, action === 'disable', now, trx),
      );
      const done = found.filter((r) => ids.has(r.id));
      for (const r of done) {
        if (action === 'disable') await sessions.revokeAccountSessions(realmId, r.id, now, undefined, trx);
        await audit.record(
          {
            realmId,
            actor: call.actor,
            action: `account.${action}`,
            target: { type: 'account', id: r.id, name: r.username },
            result: 'ok',
            request: call.request,
            ...(action === 'delete' ? {} : { changes: ['disabled'] }),
            detail: { bulk: true },
          },
          trx,
        );
      }
      return ids;
    });
    return { done: changed.size, notFound: wanted.filter((id) => !known.has(id) || !changed.has(id)) };
  }

  return { run };
}

export type PersonBulkService = ReturnType<typeof createPersonBulkService>;
