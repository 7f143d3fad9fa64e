/** Configuration: defaults, validation naming the variable, the master key kept in DATA_DIR. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createSecrets } from './crypto.js';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-cfg-'));

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
  ])('refuses a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: tmp(), [name]: value })).toThrow(new RegExp(`^configuration: ${name} `));
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
