/**
 * What administrators read of the audit trail (issue 11): a realm's events (or every realm's,
 * for the platform's administrators), their CSV export, and one account's timeline. The guard
 * already decided audit.query / audit.export / person.get in the realm the path names
 * here the one extra rule is that "every realm" (`*`) is answered only to a caller
 * the composition root says may see them all, checked again rather than trusted to the guard.
 */
import { ALL_REALMS } from '@umbo/contracts/audit';
import type { AccountRepo } from '../accounts/accounts.repo.js';
import { assertThat } from '../platform/errors.js';
import type { AuditQuery } from './audit.repo.js';
import type { AuditActor, AuditService } from './audit.service.js';

export interface AuditReader {
  /** may read every realm's events (administrators of master) */
  allRealms: boolean;
  /** the reader's own realm: where an export of every realm is recorded */
  homeRealmId: string;
  actor: AuditActor | null;
  request: { ip: string; userAgent: string };
}

export interface AuditFilterInput {
  actor?: string | undefined;
  target?: string | undefined;
  action?: string | undefined;
  result?: 'ok' | 'fail' | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export interface PageInput {
  cursor?: string | undefined;
  direction?: 'next' | 'prev' | undefined;
  limit: number;
}

export function createAuditReadService(deps: { audit: AuditService; accounts: Pick<AccountRepo, 'findAccountById'> }) {
  const { audit, accounts } = deps;

  /** The realm of the query: null for `*`, which only a reader of every realm gets (else 1003, as the guard says it). */
  function realmOf(reader: AuditReader, realmId: string, perm: 'query' | 'export'): string | null {
    if (realmId !== ALL_REALMS) return realmId;
    assertThat(reader.allRealms, 'FORBIDDEN', { service: 'users', resource: 'audit', perm });
    return null;
  }

  const filterOf = (f: AuditFilterInput): Omit<AuditQuery, 'realmId' | 'limit'> => ({
    actor: f.actor || undefined,
    target: f.target || undefined,
    action: f.action || undefined,
    result: f.result,
    from: f.from,
    to: f.to,
  });

  async function list(reader: AuditReader, realmId: string, q: AuditFilterInput & PageInput) {
    return audit.list({ ...filterOf(q), realmId: realmOf(reader, realmId, 'query'), cursor: q.cursor, direction: q.direction, limit: q.limit });
  }

  /** The export, as a stream of CSV text; the export itself is an audited act (with its row count). */
  function exportCsv(reader: AuditReader, realmId: string, f: AuditFilterInput): AsyncGenerator<string> {
    const realm = realmOf(reader, realmId, 'export');
    return audit.exportCsv({ ...filterOf(f), realmId: realm }, (count) =>
      audit.record({
        realmId: realm ?? reader.homeRealmId,
        actor: reader.actor,
        action: 'audit.export',
        result: 'ok',
        request: reader.request,
        detail: { count, ...(f.action ? { filter_action: f.action } : {}) },
      }),
    );
  }

  /** What the account did and what was done to it, in its realm (1004 for an account the realm does not have). */
  async function timeline(realmId: string, accountId: string, page: PageInput) {
    assertThat(await accounts.findAccountById(realmId, accountId), 'NOT_FOUND');
    return audit.list({ realmId, accountId, cursor: page.cursor, direction: page.direction, limit: page.limit });
  }

  return { list, exportCsv, timeline };
}

export type AuditReadService = ReturnType<typeof createAuditReadService>;
