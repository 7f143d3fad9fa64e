/** The periodic jobs of this process (issue 2: expiry sweeps; later CRL refresh and retention). */
import type { AppContext } from './context.js';
import type { Job } from './platform/jobs.js';

const DAY = 24 * 60 * 60 * 1000;

export function coreJobs(ctx: AppContext): Job[] {
  return [
    {
      name: 'sweep-sessions',
      everyMs: 60 * 60 * 1000,
      run: async () => {
        await ctx.repos.sessions.deleteStaleSessions(ctx.clock.now(), DAY);
      },
    },
  ];
}
