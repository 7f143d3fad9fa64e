/**
 * Reads the auth epoch (auth-cache.tables.ts). Read on every authenticated request, so the
 * statement is compiled once: Kysely would otherwise build and compile the same query each
 * time, which costs more than the read itself.
 */
import { CompiledQuery } from 'kysely';
import type { Db } from '../platform/db.js';
import './auth-cache.tables.js';

export function createAuthEpochRepo(db: Db) {
  const current = CompiledQuery.raw('select version from auth_epoch where id = 1', []);
  return {
    /** The current version (it only grows). */
    async read(): Promise<number> {
      const { rows } = await db.executeQuery<{ version: number | string }>(current);
      const row = rows[0];
      if (!row) throw new Error('auth_epoch has no row: the database is not migrated');
      return Number(row.version);
    },
  };
}

export type AuthEpochRepo = ReturnType<typeof createAuthEpochRepo>;
