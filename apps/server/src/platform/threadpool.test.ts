/**
 * Hashing threads below the event loop (platform/threadpool.ts): on Linux every thread but
 * the main one ends at nice 10 and the main thread keeps its priority.
 */
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { lowerWorkerPriority } from './threadpool.js';

/** nice value of a thread, field 19 of /proc/self/task/<tid>/stat (after the command name). */
function niceOf(tid: number): number {
  const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe.runIf(process.platform === 'linux')('worker thread priority', () => {
  it('lowers every thread but the main one to nice 10', async () => {
    const before = os.getPriority(process.pid);
    const lowered = await lowerWorkerPriority();
    expect(lowered).toBeGreaterThan(0);
    const tids = fs.readdirSync('/proc/self/task').map(Number);
    for (const tid of tids) expect(niceOf(tid), `thread ${tid}`).toBe(tid === process.pid ? before : 10);
  });
});
