/** The job runner's database lease: among several processes one runs each job per period. */
import { expect, it } from 'vitest';
import { coreJobs } from '../composition/jobs.js';
import { describeBothDbs } from '../test/harness.js';
import { ADMIN, tokenFor } from '../test/kit.js';
import { createJobRunner } from './jobs.js';

describeBothDbs('job runner', (h) => {
  it('lets exactly one of three runners take a due job, and none before the period ends', async () => {
    let runs = 0;
    const job = { name: `count-${Math.random()}`, everyMs: 60_000, run: async () => void runs++ };
    const runners = [1, 2, 3].map(() => createJobRunner(h().dbh.db, h().clock, [job]));
    const results = await Promise.all(runners.map((r) => r.tick()));
    expect(runs).toBe(1);
    expect(results.filter((r) => r.length === 1)).toHaveLength(1);
    h().clock.advance(59_999);
    await Promise.all(runners.map((r) => r.tick()));
    expect(runs).toBe(1);
    h().clock.advance(1);
    await Promise.all(runners.map((r) => r.tick()));
    expect(runs).toBe(2);
  });

  it('sweeps sessions long past expiry', async () => {
    const token = await tokenFor(h(), ADMIN);
    const { sessions } = h().ctx.repos;
    const found = await sessions.findSessionByTokenHash(h().ctx.secrets.hash('session', token));
    expect(found).toBeTruthy();
    h().clock.advance(8 * 24 * 3600 * 1000 + 1);
    await coreJobs(h().ctx)
      .find((j) => j.name === 'sweep-sessions')!
      .run();
    expect(await sessions.findSessionByTokenHash(h().ctx.secrets.hash('session', token))).toBeUndefined();
  });

  it("lists every area's sweep once, each on a period", () => {
    const jobs = coreJobs(h().ctx);
    // SQLite's planner statistics are refreshed by a job; PostgreSQL's autovacuum does its own
    const planner = h().dbh.dialect === 'sqlite' ? ['sqlite-optimize'] : [];
    expect(jobs.map((j) => j.name).sort()).toEqual([
      'aliliving-retry',
      'fold-account-tallies',
      'oauth-erase-sealed-answers',
      'oauth-sweep-codes',
      'oauth-sweep-tokens',
      'pki-crl-refresh',
      'pki-expiry-notices',
      ...planner,
      'sweep-audit-events',
      'sweep-codes',
      'sweep-oauth-device-codes',
      'sweep-outbox',
      'sweep-sessions',
      'sweep-throttle',
    ]);
    for (const j of jobs) expect(j.everyMs).toBeGreaterThan(0);
  });
});
