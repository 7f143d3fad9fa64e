/** Periodic work of one-time codes and mail links (composition/jobs.ts runs it). */
import type { Clock } from '../platform/clock.js';
import type { Job } from '../platform/jobs.js';
import type { CodeRepo } from './codes.repo.js';
import type { MailLinkRepo } from './mail-links.repo.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export function codeJobs(deps: { codes: CodeRepo; mailLinks: MailLinkRepo; clock: Clock }): Job[] {
  return [
    {
      // codes and mail links expired a day ago, counters of past windows (Redis keys expire by themselves)
      name: 'sweep-codes',
      everyMs: HOUR,
      run: async () => {
        const now = deps.clock.now();
        await deps.codes.deleteStaleCodes(now, DAY);
        await deps.mailLinks.deleteExpiredMailLinkCodes(now, DAY);
      },
    },
  ];
}
