/**
 * `npm start`'s decisions (scripts/start.mjs): when a part must be rebuilt, and how signals
 * reach the server, what it runs with. Real files with set times in a temporary directory; a fake child process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INPUTS, newestInput, relaySignals, serverEnv, staleness } from './start.mjs';

let dir;
const at = (seconds) => new Date(Date.UTC(2030, 0, 1, 0, 0, seconds));
function write(rel, seconds) {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, rel);
  fs.utimesSync(file, at(seconds), at(seconds));
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-start-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('staleness', () => {
  const inputs = ['src', 'package.json', 'missing.json'];

  it('builds what was never built', () => {
    write('src/a.ts', 10);
    expect(staleness('dist/main.js', inputs, dir)).toBe('not built');
  });

  it('keeps an output newer than every input', () => {
    write('src/a.ts', 10);
    write('src/deep/b.ts', 20);
    write('package.json', 5);
    write('dist/main.js', 30);
    expect(staleness('dist/main.js', inputs, dir)).toBeUndefined();
  });

  it('rebuilds when a source deep in a directory, or a listed file, is newer, and names it', () => {
    write('dist/main.js', 30);
    write('src/deep/b.ts', 31);
    expect(staleness('dist/main.js', inputs, dir)).toBe(`${path.join('src', 'deep', 'b.ts')} changed`);
    write('src/deep/b.ts', 10);
    write('package.json', 40);
    expect(staleness('dist/main.js', inputs, dir)).toBe('package.json changed');
  });

  it('ignores tests and dot-entries', () => {
    write('dist/main.js', 30);
    write('src/a.test.ts', 50);
    write('src/page.test.tsx', 50);
    write('src/.cache/x.ts', 50);
    write('src/.DS_Store', 50);
    expect(staleness('dist/main.js', inputs, dir)).toBeUndefined();
    expect(newestInput(inputs, dir).file).toBeUndefined();
  });

  it('counts what both parts are built from', () => {
    for (const part of ['console', 'server']) {
      expect(INPUTS[part]).toEqual(expect.arrayContaining(['packages/contracts/src', 'node_modules/.package-lock.json']));
    }
    expect(INPUTS.console).toContain('apps/web/src');
    expect(INPUTS.server).toContain('apps/server/src');
  });
});

describe('relaySignals', () => {
  function fakes() {
    const handlers = new Map();
    const sent = [];
    const child = { exitCode: null, signalCode: null, kill: (s) => sent.push(s) };
    relaySignals(child, { windowMs: 50, on: (signal, fn) => handlers.set(signal, fn) });
    return { fire: (s) => handlers.get(s)(), sent, child };
  }

  it('passes each signal on once when copies arrive together (terminal and npm)', async () => {
    const { fire, sent } = fakes();
    fire('SIGINT');
    fire('SIGINT');
    fire('SIGTERM');
    expect(sent).toEqual(['SIGINT', 'SIGTERM']);
    await new Promise((r) => setTimeout(r, 80));
    fire('SIGINT'); // a second Ctrl-C, later
    expect(sent).toEqual(['SIGINT', 'SIGTERM', 'SIGINT']);
  });

  it('sends nothing to a server that has exited', () => {
    const { fire, sent, child } = fakes();
    child.exitCode = 0;
    fire('SIGHUP');
    expect(sent).toEqual([]);
  });
});

describe('the server’s environment', () => {
  it('sizes the pool and fixes malloc’s mmap threshold, under the operator’s own values', () => {
    const ours = serverEnv({ PATH: '/bin' });
    expect(ours).toMatchObject({ PATH: '/bin', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(Number(ours.UV_THREADPOOL_SIZE)).toBe(Math.max(2, os.availableParallelism()));
    expect(serverEnv({ UV_THREADPOOL_SIZE: '7', MALLOC_MMAP_THRESHOLD_: '1048576' })).toMatchObject({
      UV_THREADPOOL_SIZE: '7',
      MALLOC_MMAP_THRESHOLD_: '1048576',
    });
  });
});
