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
    {
      // expired codes and mail links, idle counters, outbox older than 7 days
      name: 'sweep-codes',
      everyMs: 60 * 60 * 1000,
      run: async () => {
        await ctx.services.flows.sweep(ctx.clock.now());
        await ctx.services.own.sweep(ctx.clock.now());
      },
    },
  ];
}
