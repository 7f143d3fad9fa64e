/** Periodic work of accounts (composition/jobs.ts runs it). */
import type { Job } from '../platform/jobs.js';
import type { AccountRepo } from './accounts.repo.js';

/**
 * How often the tallies are folded (migration 0037). Between two runs a combination gains a row
 * per writing statement on PostgreSQL; a total sums them, so it stays exact and only the rows
 * to sum grow (a thousand sign-ups a second: ~30,000 rows, under 5 ms to sum). On SQLite a run
 * only drops the zeros a deleted realm leaves.
 */
export const TALLY_FOLD_EVERY_MS = 30_000;

export function accountJobs(deps: { accounts: Pick<AccountRepo, 'foldTallies'> }): Job[] {
  return [{ name: 'fold-account-tallies', everyMs: TALLY_FOLD_EVERY_MS, run: () => deps.accounts.foldTallies() }];
}
