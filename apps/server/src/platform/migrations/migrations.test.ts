/**
 * migrations run on SQLite and PostgreSQL alike; re-running them on a database that
 * already holds rows changes nothing. (When 0.1 is released, its database becomes a fixture
 * here that must migrate up with every row intact.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createHarness, DB_TARGETS, describeBothDbs } from '../../test/harness.js';
import { migrateToLatest } from './index.js';

describeBothDbs('A-48 migrations', (h) => {
  it('records every migration once and keeps rows when run again', async () => {
    const db = h().dbh.db;
    const before = await db.selectFrom('accounts').selectAll().execute();
    expect(before.map((a) => a.username)).toContain('admin');
    await migrateToLatest(db, h().dbh.schema);
    await migrateToLatest(db, h().dbh.schema);
    const after = await db.selectFrom('accounts').selectAll().execute();
    expect(after).toEqual(before);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    const names = applied.rows.map((r) => r.name);
    expect(names[0]).toBe('0001_create_core');
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
  });

  it('enforces the unique user name per realm on both databases', async () => {
    const db = h().dbh.db;
    const now = h().clock.now();
    const row = (id: string) => ({
      id,
      realm_id: 'master',
      kind: 'person' as const,
      owner_id: null,
      username: 'Dup',
      username_norm: 'dup',
      email: null,
      email_norm: null,
      phone: null,
      password_hash: null,
      avatar: '',
      disabled: 0,
      activated: 1,
      force_password: 0,
      regist_area: '',
      last_login_at: null,
      last_login_area: '',
      created_at: now,
      updated_at: now,
    });
    await db.insertInto('accounts').values(row('dup-1')).execute();
    await expect(db.insertInto('accounts').values(row('dup-2')).execute()).rejects.toThrow();
  });
});

describe('A-48 migrations on a shared PostgreSQL server [postgres]', () => {
  let h: Awaited<ReturnType<typeof createHarness>>;
  beforeAll(async () => {
    h = await createHarness(DB_TARGETS.find((t) => t.dialect === 'postgres')!);
  });
  afterAll(() => h?.dispose());

  it('look only at their own schema, so another schema dropped meanwhile cannot fail them', async () => {
    const db = h.dbh.db;
    const other = `${h.dbh.schema}_other`;
    await sql.raw(`create schema ${other}; create table ${other}.kysely_migration (name text)`).execute(db);
    try {
      const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
      expect(tables.map((t) => t.schema)).not.toContain(other);
      expect(tables.find((t) => t.name === 'kysely_migration')?.schema).toBe(h.dbh.schema);
      // dropped while a migration run introspects: the stock introspector failed here
      await Promise.all([migrateToLatest(db, h.dbh.schema), sql.raw(`drop schema ${other} cascade`).execute(db)]);
    } finally {
      await sql.raw(`drop schema if exists ${other} cascade`).execute(db);
    }
  });
});
