/** mapBounded: never more than `limit` calls in flight, answers in input order, no new call after a failure. */
import { expect, it } from 'vitest';
import { mapBounded } from './bounded.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('runs at most `limit` at once and answers in the order asked', async () => {
  let inFlight = 0;
  let most = 0;
  const out = await mapBounded([...Array(30).keys()], 8, async (i) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await tick(i % 3);
    inFlight--;
    return i * 2;
  });
  expect(most).toBe(8);
  expect(out).toEqual([...Array(30).keys()].map((i) => i * 2));
});

it('rejects with the first failure and starts nothing after it', async () => {
  const started: number[] = [];
  const run = mapBounded([...Array(20).keys()], 2, async (i) => {
    started.push(i);
    await tick(1);
    if (i === 3) throw new Error('boom');
    return i;
  });
  await expect(run).rejects.toThrow('boom');
  await tick(20);
  // 0..3 ran, plus at most the one the other worker had already started
  expect(Math.max(...started)).toBeLessThanOrEqual(4);
});
