/** Configuration: defaults, validation naming the variable, the master key kept in DATA_DIR. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createSecrets } from './crypto.js';
import { ROOT } from '../test/processes.js';

const made: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-cfg-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('configuration', () => {
  it('defaults to port 8080 and the SQLite file in DATA_DIR', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBe(`sqlite:${path.join(dir, 'umbo.sqlite')}`);
    expect(c.publicUrl).toBe('http://localhost:8080');
    expect(c.redisUrl).toBeUndefined();
  });

  it('generates the master key once into DATA_DIR and reuses it', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir }).masterKey;
    const b = loadConfig({ DATA_DIR: dir }).masterKey;
    expect(a.length).toBe(32);
    expect(b.equals(a)).toBe(true);
    expect(fs.statSync(path.join(dir, 'master.key')).mode & 0o077).toBe(0);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PUBLIC_URL', 'ftp://x'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://x'],
    ['ADMIN_PASSWORD', '123'],
    ['MASTER_KEY', 'abcd'],
    ['MASTER_CAPTCHA_POLICY', 'never'],
    ['ALILIVING_API_URL', 'ftp://api.link.aliyun.com'],
    ['ALILIVING_API_URL', 'api.link.aliyun.com'],
    ['BIGDATA_ALLOW_PRIVATE_NETWORK', 'yes'],
    ['BIGDATA_POLL_MS', 'abc'],
    ['BIGDATA_POLL_MS', '10'],
    ['BIGDATA_LEASE_MS', '10'],
  ])('refuses a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: tmp(), [name]: value })).toThrow(new RegExp(`^configuration: ${name} `));
  });
});

// Issue 14: the federation areas' settings, read here with the others (README "Configuration").
describe('ALILIVING_* and BIGDATA_*', () => {
  it('default to the Aliyun gateway, the public network only, and the queue figures of the README', () => {
    const c = loadConfig({ DATA_DIR: tmp() });
    expect(c.aliLiving).toEqual({ baseUrl: 'https://api.link.aliyun.com/', allowPrivate: false, timeoutMs: 3000 });
    expect(c.bigdata).toEqual({ allowPrivate: false, pollMs: 1000, leaseMs: 30_000, retryBaseMs: 1000, retryMaxMs: 300_000, batch: 100, concurrency: 8 });
  });

  it('take what the operator set', () => {
    const c = loadConfig({
      DATA_DIR: tmp(),
      ALILIVING_API_URL: 'http://127.0.0.1:9300/gw',
      ALILIVING_ALLOW_PRIVATE_NETWORK: 'true',
      BIGDATA_ALLOW_PRIVATE_NETWORK: 'true',
      BIGDATA_POLL_MS: '100',
      BIGDATA_LEASE_MS: '2000',
    });
    expect(c.aliLiving).toMatchObject({ baseUrl: 'http://127.0.0.1:9300/gw', allowPrivate: true });
    expect(c.bigdata).toMatchObject({ allowPrivate: true, pollMs: 100, leaseMs: 2000 });
    expect(loadConfig({ DATA_DIR: tmp(), BIGDATA_ALLOW_PRIVATE_NETWORK: 'false', BIGDATA_POLL_MS: '' }).bigdata).toMatchObject({
      allowPrivate: false,
      pollMs: 1000,
    });
  });

  it('say what is wrong with a bad value', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), BIGDATA_LEASE_MS: '10' })).toThrow(
      'configuration: BIGDATA_LEASE_MS must be an integer between 1000 and 3600000, got "10"',
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), BIGDATA_ALLOW_PRIVATE_NETWORK: 'yes' })).toThrow(
      'configuration: BIGDATA_ALLOW_PRIVATE_NETWORK must be true or false, got "yes"',
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), ALILIVING_API_URL: 'ftp://x' })).toThrow('configuration: ALILIVING_API_URL must be an http(s) URL');
  });

  it('a bad value stops the server before it opens anything, with that message and no stack', () => {
    const dir = tmp();
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), DATA_DIR: dir, PORT: '0', BIGDATA_POLL_MS: 'abc' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('configuration: BIGDATA_POLL_MS must be an integer between 50 and 60000, got "abc"');
    expect(fs.existsSync(path.join(dir, 'umbo.sqlite'))).toBe(false);
  }, 60_000);
});

// Issue 8, defect 10: which X-Forwarded-For hops are believed decides the address the
// per-address throttles count (SECURITY.md A-31); behaviour on requests: trust-proxy.test.ts.
describe('TRUST_PROXY', () => {
  const load = (value?: string) => loadConfig({ DATA_DIR: tmp(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;

  it.each([[undefined], [''], ['false'], ['FALSE'], ['0']])('%s means no proxy: X-Forwarded-* ignored', (value) => {
    expect(load(value)).toBe(false);
  });

  it.each([['true'], ['TRUE'], [' true ']])('refuses %s at start, explaining the choices', (value) => {
    expect(() => load(value)).toThrow(
      'configuration: TRUST_PROXY true trusts every hop, so clients choose their own address; set the number of proxies (e.g. 1) or their addresses',
    );
  });

  it('a number of proxies trusts exactly that many hops, whatever their addresses', () => {
    const trust = load('2');
    expect(typeof trust).toBe('function');
    const fn = trust as (address: string, hop: number) => boolean;
    expect([0, 1, 2, 3].map((hop) => fn('198.51.100.7', hop))).toEqual([true, true, false, false]);
  });

  it('a list of proxy addresses, CIDRs and range names is kept for Fastify, trimmed', () => {
    expect(load(' 10.0.0.5, 10.1.0.0/16 ,::1,fd00::/8,loopback,linklocal,uniquelocal')).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
      'linklocal',
      'uniquelocal',
    ]);
  });

  it.each([
    ['yes'],
    ['*'],
    ['-1'],
    ['1.5'],
    ['17'],
    ['0.0.0.0/0'],
    ['::/0'],
    ['10.0.0.1/33'],
    ['::1/129'],
    ['10.0.0.0/255.0.0.0'],
    ['10.0.0.1,'],
    ['10.0.0.1,,10.0.0.2'],
    ['127.1'],
    ['fe80::1%eth0'],
    ['localhost'],
    ['1, 10.0.0.1'],
  ])('refuses %j and names TRUST_PROXY', (value) => {
    expect(() => load(value)).toThrow(/^configuration: TRUST_PROXY /);
  });
});

describe('secrets', () => {
  const s = createSecrets(Buffer.alloc(32, 7));
  it('encrypts at rest with authentication', () => {
    const sealed = s.encrypt('private key');
    expect(sealed).not.toContain('private');
    expect(s.decrypt(sealed)).toBe('private key');
    const parts = sealed.split('.');
    parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith('AA') ? 'AB' : 'AA');
    expect(() => s.decrypt(parts.join('.'))).toThrow();
  });
  it('hashes per purpose', () => {
    expect(s.hash('session', 'x')).not.toBe(s.hash('reset', 'x'));
    expect(s.hash('session', 'x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
