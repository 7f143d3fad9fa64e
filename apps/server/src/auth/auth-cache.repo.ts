/**
 * Reads the auth epoch (auth-cache.tables.ts). Read on every authenticated request, so the
 * statement is compiled once: Kysely would otherwise build and compile the same query each
 * time, which costs more than the read itself. On SQLite it skips Kysely's driver altogether
 * (platform/db.ts syncReaderOf); on PostgreSQL it is a named statement, bound and run without
 * being parsed and planned again (~15–25 µs less per round trip, which every request waits for).
 *
 * On SQLite the process is the only writer (platform/db.ts soleWriterCountOf): the epoch can
 * only move through a statement this process ran, so the version read is kept until one has
 * run, and a request after a change still reads it anew. Reads of the OAuth token path, which
 * writes nothing, then cost no query at all (issue 12 bench: the read was ~13 µs a token).
 */
import { CompiledQuery } from 'kysely';
import { keepPrepared, soleWriterCountOf, syncReaderOf, type Db } from '../platform/db.js';
import { sharedFreshRead } from '../platform/shared-read.js';
import './auth-cache.tables.js';

export function createAuthEpochRepo(db: Db) {
  const sql = 'select version from auth_epoch where id = 1';
  const current = CompiledQuery.raw(sql, []);
  const readNow = syncReaderOf(db);
  const writesSoFar = soleWriterCountOf(db);
  if (!readNow) keepPrepared(sql);
  let known: { version: number; writes: number } | undefined;
  /** The current version (it only grows). */
  async function read(): Promise<number> {
    const writes = writesSoFar?.();
    if (writes !== undefined && known?.writes === writes) return known.version;
    const row = readNow ? (readNow(sql) as { version: number | string } | undefined) : (await db.executeQuery<{ version: number | string }>(current)).rows[0];
    if (!row) throw new Error('auth_epoch has no row: the database is not migrated');
    const version = Number(row.version);
    if (writes !== undefined) known = { version, writes };
    return version;
  }
  return {
    read,
    /**
     * The version as of after the call, one read shared by the callers that overlap
     * (platform/shared-read.ts): what the guard's, the clients' and the realm settings' caches
     * check, one instance for all three, so a request that passes two of them shares a read too.
     * PostgreSQL: sent at the end of the turn, for every caller of that turn.
     */
    fresh: sharedFreshRead(read, { endOfTurn: !readNow }),
  };
}

export type AuthEpochRepo = ReturnType<typeof createAuthEpochRepo>;
