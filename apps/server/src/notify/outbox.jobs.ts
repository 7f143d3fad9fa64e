/** Periodic work of the outbox (composition/jobs.ts runs it). */
import type { Clock } from '../platform/clock.js';
import type { Job } from '../platform/jobs.js';
import type { OutboxRepo } from './outbox.repo.js';

const HOUR = 60 * 60 * 1000;
/** Messages are kept a week: long enough to finish any flow, short enough not to pile up codes. */
const KEEP_MS = 7 * 24 * HOUR;

export function outboxJobs(deps: { outbox: OutboxRepo; clock: Clock }): Job[] {
  return [{ name: 'sweep-outbox', everyMs: HOUR, run: async () => void (await deps.outbox.deleteOutboxMessagesBefore(deps.clock.now() - KEEP_MS)) }];
}
