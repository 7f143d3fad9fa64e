/**
 * A small runner for periodic work. Each run takes a lease row in the database first, so
 * among several server processes exactly one runs a job per period (issue 2).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Db } from './db.js';
import { newId } from './crypto.js';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

export interface JobRunner {
  /** Runs every job whose period is due and whose lease this process wins. */
  tick(): Promise<string[]>;
  start(pollMs?: number): void;
  stop(): void;
}

export function createJobRunner(db: Db, clock: Clock, jobs: Job[], log?: FastifyBaseLogger): JobRunner {
  const holder = newId();
  let timer: NodeJS.Timeout | undefined;

  /** Atomic conditional update: only one holder can move an expired lease forward. */
  async function acquire(job: Job): Promise<boolean> {
    const now = clock.now();
    await db
      .insertInto('job_leases')
      .values({ name: job.name, holder: '', lease_until: 0, last_run_at: null })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const res = await db
      .updateTable('job_leases')
      .set({ holder, lease_until: now + job.everyMs, last_run_at: now })
      .where('name', '=', job.name)
      .where('lease_until', '<=', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async function tick(): Promise<string[]> {
    const ran: string[] = [];
    for (const job of jobs) {
      try {
        if (!(await acquire(job))) continue;
        await job.run();
        ran.push(job.name);
      } catch (err) {
        log?.warn({ err, job: job.name }, 'job failed');
      }
    }
    return ran;
  }

  return {
    tick,
    start(pollMs = 30_000) {
      timer = setInterval(() => void tick(), pollMs);
      timer.unref();
      void tick();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
