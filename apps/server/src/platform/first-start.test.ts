/**
 * Issue 9, in one process: the first-start bootstrap run by several instances at once on one
 * database (a handle each, as separate processes would have), and the master key's check
 * value: recorded once, compared on every start, a wrong key refused before anything is written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from './clock.js';
import { loadConfig, type Config } from './config.js';
import { createSecrets } from './crypto.js';
import { openDb, type DbHandle } from './db.js';
import { checkMasterKey, keyCheckValue, KEY_CHECK_SETTING, sharedKeyWarning, verifyRecordedKey } from './key-check.js';
import { migrateToLatest } from './migrations/index.js';
import { bootstrap } from '../composition/bootstrap.js';
import { DB_TARGETS } from '../test/harness.js';

const KEY_A = Buffer.alloc(32, 0xa1);
const KEY_B = Buffer.alloc(32, 0xb2);
const keyConfig = (masterKey: Buffer): Pick<Config, 'masterKey' | 'masterKeySource'> => ({ masterKey, masterKeySource: { kind: 'env' } });

/**
 * A fresh, migrated database of the target, plus a second handle on it (another "instance").
 * SQLite serves one process, which holds the file for itself (a second is refused, below):
 * its "instances" are concurrent callers on the one handle.
 */
async function openTwice(dialect: 'sqlite' | 'postgres') {
  const opened = await DB_TARGETS.find((t) => t.dialect === dialect)!.open();
  await migrateToLatest(opened.dbh.db, opened.dbh.schema);
  const second = dialect === 'sqlite' ? undefined : openDb(opened.url, { schema: opened.dbh.schema, poolMax: 5 });
  return {
    a: opened.dbh,
    b: second ?? opened.dbh,
    url: opened.url,
    async dispose() {
      await second?.close();
      await opened.dispose();
    },
  };
}

describe('issue 9 a second process on a SQLite file [sqlite]', () => {
  it('is refused at once, naming the file and what to do, and the first keeps working', async () => {
    const dbs = await openTwice('sqlite');
    try {
      await bootstrap(dbs.a.db, new FakeClock(Date.now()), 'Admin-Passw0rd!');
      const file = dbs.url.slice('sqlite:'.length);
      expect(() => openDb(dbs.url, { busyTimeoutMs: 100 })).toThrow(
        `configuration: the SQLite database ${file} is in use by another process. SQLite serves one umbo process; stop the other one, or give each its own DATA_DIR, or use PostgreSQL (DATABASE_URL) for several instances.`,
      );
      // a tool that opens the file as SQLite's shell does, without the exclusive lock, cannot read it either
      expect(() => openDb(dbs.url, { busyTimeoutMs: 100, shared: true })).toThrow(/in use by another process/);
      expect(await count(dbs.a, 'accounts')).toBe(1);
    } finally {
      await dbs.dispose();
    }
  });
});

async function count(dbh: DbHandle, table: 'realms' | 'accounts' | 'role_bindings' | 'roles'): Promise<number> {
  const row = await dbh.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe(`issue 9 first start, several instances at once [${dialect}]`, () => {
    let dbs: Awaited<ReturnType<typeof openTwice>>;
    beforeEach(async () => {
      dbs = await openTwice(dialect);
    });
    afterEach(() => dbs?.dispose());

    it('two bootstraps at once: one realm, one admin, one binding, one generated password', async () => {
      const clock = new FakeClock(Date.now());
      const results = await Promise.all([bootstrap(dbs.a.db, clock), bootstrap(dbs.b.db, clock), bootstrap(dbs.a.db, clock)]);
      expect(results.filter((r) => r.createdAdmin)).toHaveLength(1);
      expect(results.filter((r) => r.generatedAdminPassword)).toHaveLength(1);
      expect(await count(dbs.a, 'realms')).toBe(1);
      expect(await count(dbs.a, 'accounts')).toBe(1);
      expect(await count(dbs.a, 'role_bindings')).toBe(1);
      // and a later start changes nothing
      const again = await bootstrap(dbs.b.db, clock);
      expect(again).toEqual({ createdAdmin: false });
      expect(await count(dbs.a, 'accounts')).toBe(1);
    });

    it('two first key checks at once with different keys: one records its key, the other is refused', async () => {
      const now = Date.now();
      const [a, b] = await Promise.allSettled([checkMasterKey(dbs.a.db, keyConfig(KEY_A), now), checkMasterKey(dbs.b.db, keyConfig(KEY_B), now)]);
      expect([a.status, b.status].sort()).toEqual(['fulfilled', 'rejected']);
      const refused = (a.status === 'rejected' ? a : b) as PromiseRejectedResult;
      expect(String(refused.reason.message)).toMatch(/^configuration: MASTER_KEY does not match this database/);
      const rows = await sql<{ value: string }>`select value from instance_settings`.execute(dbs.a.db);
      expect(rows.rows).toHaveLength(1);
      expect([keyCheckValue(KEY_A), keyCheckValue(KEY_B)]).toContain(rows.rows[0]!.value);
    });
  });
}

describe('issue 9 the master key check [postgres]', () => {
  let dbs: Awaited<ReturnType<typeof openTwice>>;
  beforeAll(async () => {
    dbs = await openTwice('postgres');
  });
  afterAll(() => dbs?.dispose());

  it('is recorded once as a keyed hash, never the key, and passes for the same key', async () => {
    await verifyRecordedKey(dbs.a.db, keyConfig(KEY_A));
    await checkMasterKey(dbs.a.db, keyConfig(KEY_A), 1);
    await checkMasterKey(dbs.b.db, keyConfig(KEY_A), 2);
    await verifyRecordedKey(dbs.b.db, keyConfig(KEY_A));
    const rows = await sql<{ name: string; value: string; created_at: number }>`select name, value, created_at from instance_settings`.execute(dbs.a.db);
    expect(rows.rows).toEqual([{ name: KEY_CHECK_SETTING, value: keyCheckValue(KEY_A), created_at: 1 }]);
    expect(rows.rows[0]!.value).not.toContain(KEY_A.toString('hex'));
    expect(keyCheckValue(KEY_A)).not.toBe(keyCheckValue(KEY_B));
  });

  it('refuses another key, before and after the migrations, naming MASTER_KEY, where the key came from, and what to do', async () => {
    await checkMasterKey(dbs.a.db, keyConfig(KEY_A), 1); // recorded already, or now
    const fromFile = { masterKey: KEY_B, masterKeySource: { kind: 'file' as const, file: '/srv/umbo/master.key', created: true } };
    await expect(verifyRecordedKey(dbs.b.db, fromFile)).rejects.toThrow(/^configuration: MASTER_KEY does not match this database/);
    const err = await checkMasterKey(dbs.b.db, fromFile, 3).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const message = (err as Error).message;
    expect(message).toContain('/srv/umbo/master.key, generated just now because MASTER_KEY is not set');
    expect(message).toContain('Every instance sharing a database must run with the same MASTER_KEY');
    expect(message).toContain('If this database is new');
    expect(message).not.toContain(KEY_B.toString('hex'));
    const rows = await sql<{ value: string }>`select value from instance_settings`.execute(dbs.a.db);
    expect(rows.rows.map((r) => r.value)).toEqual([keyCheckValue(KEY_A)]);
  });
});

describe('issue 9 a database from before the key check [sqlite]', () => {
  it('records the key only if it opens what the database already holds sealed', async () => {
    const dbs = await openTwice('sqlite');
    try {
      const now = Date.now();
      await bootstrap(dbs.a.db, new FakeClock(now), 'Admin-Passw0rd!');
      const sealed = createSecrets(KEY_A);
      await dbs.a.db
        .insertInto('outbox')
        .values({
          id: 'm1',
          realm_id: 'master',
          channel: 'mail',
          recipient: 'a@example.test',
          subject: sealed.encrypt('s'),
          body: sealed.encrypt('b'),
          created_at: now,
        })
        .execute();
      await expect(checkMasterKey(dbs.b.db, keyConfig(KEY_B), now)).rejects.toThrow(/sealed under another key/);
      expect((await sql`select * from instance_settings`.execute(dbs.a.db)).rows).toHaveLength(0);
      await checkMasterKey(dbs.a.db, keyConfig(KEY_A), now);
      expect((await sql<{ value: string }>`select value from instance_settings`.execute(dbs.a.db)).rows).toEqual([{ value: keyCheckValue(KEY_A) }]);
    } finally {
      await dbs.dispose();
    }
  });
});

describe('issue 9 the start-up warning', () => {
  it('is given with PostgreSQL and no MASTER_KEY, and not otherwise', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-warn-'));
    try {
      const pgNoKey = loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db.example/umbo' });
      expect(sharedKeyWarning(pgNoKey)).toMatch(/WARNING: MASTER_KEY is not set, and the database is PostgreSQL/);
      expect(sharedKeyWarning(pgNoKey)).toContain(`${path.join(dir, 'master.key')}, generated just now`);
      expect(sharedKeyWarning(pgNoKey)).toContain('SAME MASTER_KEY');
      expect(sharedKeyWarning(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db.example/umbo' }))).not.toContain('generated just now');
      expect(sharedKeyWarning(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db.example/umbo', MASTER_KEY: '22'.repeat(32) }))).toBeUndefined();
      expect(sharedKeyWarning(loadConfig({ DATA_DIR: dir }))).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
