/** Certificate expiry notices (issue 13), run by composition/jobs.ts: one process per run, and once per notice anyway (expiry-notices.ts). */
import type { Job } from '../platform/jobs.js';
import type { ExpiryNotices } from './expiry-notices.js';

/** Hourly: a notice goes out within the hour its certificate crosses a threshold. */
export const EXPIRY_JOB_EVERY_MS = 60 * 60 * 1000;

export function expiryJobs(deps: { notices: ExpiryNotices }): Job[] {
  return [{ name: 'pki-expiry-notices', everyMs: EXPIRY_JOB_EVERY_MS, run: async () => void (await deps.notices.run()) }];
}
