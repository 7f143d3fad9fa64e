/**
 * Reads the auth epoch (auth-cache.tables.ts). Read on every authenticated request, so the
 * statement is compiled once: Kysely would otherwise build and compile the same query each
 * time, which costs more than the read itself. On SQLite it skips Kysely's driver altogether
 * (platform/db.ts syncReaderOf); on PostgreSQL it is a named statement, bound and run without
 * being parsed and planned again (~15–25 µs less per round trip, which every request waits for).
 */
import { CompiledQuery } from 'kysely';
import { keepPrepared, syncReaderOf, type Db } from '../platform/db.js';
import './auth-cache.tables.js';

export function createAuthEpochRepo(db: Db) {
  const sql = 'select version from auth_epoch where id = 1';
  const current = CompiledQuery.raw(sql, []);
  const readNow = syncReaderOf(db);
  if (!readNow) keepPrepared(sql);
  return {
    /** The current version (it only grows). */
    async read(): Promise<number> {
      let row: { version: number | string } | undefined;
      if (readNow) row = readNow(sql) as typeof row;
      else row = (await db.executeQuery<{ version: number | string }>(current)).rows[0];
      if (!row) throw new Error('auth_epoch has no row: the database is not migrated');
      return Number(row.version);
    },
  };
}

export type AuthEpochRepo = ReturnType<typeof createAuthEpochRepo>;
