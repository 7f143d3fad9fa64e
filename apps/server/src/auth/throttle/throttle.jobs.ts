/** Periodic work of sign-in throttling (composition/jobs.ts runs it). */
import type { Clock } from '../../platform/clock.js';
import type { Job } from '../../platform/jobs.js';
import type { ThrottleRepo } from './throttle.repo.js';

const HOUR = 60 * 60 * 1000;

export function throttleJobs(deps: { throttle: ThrottleRepo; clock: Clock }): Job[] {
  return [
    {
      // Database counters idle for over a day (the longest window) and no longer blocking go;
      // Redis keys expire by themselves.
      name: 'sweep-throttle',
      everyMs: HOUR,
      run: async () => {
        const now = deps.clock.now();
        await deps.throttle.deleteStaleCounters(now - 25 * HOUR, now);
      },
    },
  ];
}
