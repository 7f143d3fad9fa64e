/**
 * Real server processes for the suites that need one (kill -9, several instances): main.ts under
 * tsx, as `npm start` runs the compiled file, on a free loopback port, with only the environment
 * the suite gives, on a temporary data directory and, for PostgreSQL, a schema of its own. Each
 * suite keeps its own `serverProcesses()` and awaits `stopAll()` in afterAll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PG_URL } from './harness.js';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** settles when the process has exited */
  exited: Promise<void>;
  /** what it wrote to stderr so far */
  stderr(): string;
}

export function serverProcesses() {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const schemas: string[] = [];

  /** A temporary directory removed by stopAll(). */
  function tmpDir(prefix = 'umbo-proc-'): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  }

  /**
   * A new, empty PostgreSQL schema in TEST_DATABASE_URL's database, dropped by stopAll(). `url` is
   * the DATABASE_URL that gives a server process this schema as its search_path (the server
   * migrates it at start); `schema` names it for the suite's own queries.
   */
  async function pgSchemaForProcess(prefix = 't_proc_'): Promise<{ schema: string; url: string }> {
    const schema = `${prefix}${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`create schema ${schema}`);
    } finally {
      await admin.end();
    }
    schemas.push(schema);
    const options = encodeURIComponent(`-c search_path=${schema}`);
    return { schema, url: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${options}` };
  }

  /** Starts a server with `env` (PATH, HOME, PORT, HOST and LOG_LEVEL=warn added) and waits for /readyz. */
  async function start(env: Record<string, string>, readyMs = 60_000): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const base = `http://127.0.0.1:${port}`;
    for (const end = Date.now() + readyMs; Date.now() < end; await sleep(200)) {
      if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
      try {
        if ((await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) })).ok) return { base, child, exited, stderr: () => err };
      } catch {
        // not listening yet
      }
    }
    throw new Error(`server not ready: ${err}`);
  }

  /**
   * Kills whatever still runs and removes the temporary directories straight away (gone even for
   * a suite that does not await this), then drops the schemas once the processes have exited.
   */
  async function stopAll(): Promise<void> {
    const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
    const gone = running.map((c) => new Promise<void>((resolve) => c.once('exit', () => resolve())));
    for (const c of running) c.kill('SIGKILL');
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
    if (!schemas.length) return;
    // a dead process holds no PostgreSQL lock the drop would wait on (bounded: one that never
    // started never exits)
    await Promise.race([Promise.all(gone), sleep(10_000)]);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      for (const s of schemas.splice(0)) await admin.query(`drop schema if exists ${s} cascade`);
    } finally {
      await admin.end();
    }
  }

  return { start, tmpDir, pgSchemaForProcess, stopAll };
}
