/**
 * The browser suite (issue 2): Chromium through playwright-core against the real server and
 * the built console. One file at a time, one worker: each file starts its own server.
 * Needs `npm run build` first; see tests/browser/harness.ts.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/browser/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for what a user waits for (a lazy screen, a language's phrases); on a
    // busy 2-core machine that can take longer than vitest's 1 s default.
    expect: { poll: { timeout: 10_000 } },
  },
});
