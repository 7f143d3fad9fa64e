/**
 * Retention of the audit trail (issue 11): events older than AUDIT_RETENTION_DAYS (default
 * 180) are removed by the job runner (composition/jobs.ts), in batches so that no single
 * statement holds the table for long; a run stops after a bounded number of batches and the
 * next hour's run goes on where it stopped.
 */
import type { Clock } from '../platform/clock.js';
import type { Job } from '../platform/jobs.js';
import { DAY_MS, type AuditRepo } from './audit.repo.js';

const HOUR = 60 * 60 * 1000;
const BATCH = 5000;
const MAX_BATCHES_PER_RUN = 200;

/** Removes what is past retention; answers how many rows went. */
export async function sweepAuditEvents(deps: { audit: AuditRepo; clock: Clock; retentionDays: number }): Promise<number> {
  const before = deps.clock.now() - deps.retentionDays * DAY_MS;
  let removed = 0;
  for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
    const n = await deps.audit.deleteAuditEventsBefore(before, BATCH);
    removed += n;
    if (n < BATCH) break;
  }
  return removed;
}

export function auditJobs(deps: { audit: AuditRepo; clock: Clock; retentionDays: number }): Job[] {
  return [{ name: 'sweep-audit-events', everyMs: HOUR, run: async () => void (await sweepAuditEvents(deps)) }];
}
