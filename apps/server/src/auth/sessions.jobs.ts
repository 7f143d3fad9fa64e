/** Periodic work of sessions (composition/jobs.ts runs it). */
import type { Clock } from '../platform/clock.js';
import type { Job } from '../platform/jobs.js';
import type { SessionRepo } from './sessions.repo.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export function sessionJobs(deps: { sessions: SessionRepo; clock: Clock }): Job[] {
  return [
    // expired or revoked a day ago: no longer shown, no longer needed
    { name: 'sweep-sessions', everyMs: HOUR, run: async () => void (await deps.sessions.deleteStaleSessions(deps.clock.now(), DAY)) },
  ];
}
