/** Periodic work of the device CA (composition/jobs.ts runs it; one process per run). */
import type { Job } from '../platform/jobs.js';
import type { CrlService } from './crl.js';
import { CRL_JOB_EVERY_MS } from './defaults.js';

export function pkiJobs(deps: { crl: CrlService }): Job[] {
  return [{ name: 'pki-crl-refresh', everyMs: CRL_JOB_EVERY_MS, run: async () => void (await deps.crl.refreshDue()) }];
}
