/**
 * Password hashing (argon2id) runs on libuv's thread pool. Its default of 4 threads on a
 * 2-core machine lets hashes crowd out the event loop during a sign-in storm; one thread per
 * core keeps every other call answering. Imported first by main.ts: libuv reads the variable
 * when the pool starts, on first use. An operator's own UV_THREADPOOL_SIZE wins.
 */
import { pbkdf2 } from 'node:crypto';
import { readdirSync } from 'node:fs';
import os from 'node:os';

process.env.UV_THREADPOOL_SIZE ??= String(Math.max(2, os.availableParallelism()));

/**
 * Hashes must not delay the event loop: every other call (token checks, the console) waits
 * behind a busy core otherwise. On Linux each thread has its own nice value, so once the
 * libuv pool exists (it starts on first use) every thread but the main one is lowered to
 * nice 10: under a sign-in storm the event loop runs first and hashing takes the rest of
 * the CPU, which it saturates anyway. Elsewhere, or when not permitted, nothing changes.
 */
export async function lowerWorkerPriority(): Promise<number> {
  if (process.platform !== 'linux') return 0;
  await new Promise((resolve) => pbkdf2('start', 'the-pool', 1, 8, 'sha256', resolve));
  let lowered = 0;
  for (const entry of readdirSync('/proc/self/task')) {
    const tid = Number(entry);
    if (tid === process.pid) continue;
    try {
      os.setPriority(tid, 10);
      lowered += 1;
    } catch {
      // not permitted here: keep the default
    }
  }
  return lowered;
}
