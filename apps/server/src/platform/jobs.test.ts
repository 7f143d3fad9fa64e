/** The job runner's database lease: among several processes one runs each job per period. */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
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
    const token = await h().login();
    const { sessions } = h().ctx.repos;
    const found = await sessions.findSessionByTokenHash(h().ctx.secrets.hash('session', token));
    expect(found).toBeTruthy();
    h().clock.advance(8 * 24 * 3600 * 1000 + 1);
    await sessions.deleteStaleSessions(h().clock.now(), 24 * 3600 * 1000);
    expect(await sessions.findSessionByTokenHash(h().ctx.secrets.hash('session', token))).toBeUndefined();
  });
});
