/**
 * Real server processes for the suites that need one (kill -9, several instances): main.ts under
 * tsx, as `npm start` runs the compiled file, on a free loopback port, with only the environment
 * the suite gives. Each suite keeps its own `ServerProcesses` and calls `stopAll()` in afterAll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

  /** A temporary directory removed by stopAll(). */
  function tmpDir(prefix = 'umbo-proc-'): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
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

  /** Kills whatever still runs and removes the temporary directories. */
  function stopAll(): void {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }

  return { start, tmpDir, stopAll };
}
