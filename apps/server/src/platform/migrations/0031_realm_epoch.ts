/**
 * Realm changes bump the auth epoch too (migration 0021): the realm settings the sign-in flows
 * read are kept in each instance's memory (realms/realm-policy.ts) and used only while the
 * epoch they were read under is current, so a method switched off, a protection tightened or a
 * backend changed on any instance holds on every instance at its next request.
 * Inserts need no bump (nothing cached can refer to a realm that did not exist); realm edits
 * are rare, so the guard's cache being cleared with them costs nothing that matters.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const BUMP = 'update auth_epoch set version = version + 1 where id = 1';

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // BEFORE the statement, as 0021's triggers: the epoch row's lock comes before any row lock.
    await sql.raw('create trigger auth_epoch_realms before update or delete on realms for each statement execute function umbo_bump_auth_epoch()').execute(db);
  } else {
    await sql.raw(`create trigger auth_epoch_realms_0 after update on realms for each row begin ${BUMP}; end`).execute(db);
    await sql.raw(`create trigger auth_epoch_realms_1 after delete on realms for each row begin ${BUMP}; end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql.raw('drop trigger if exists auth_epoch_realms on realms').execute(db);
  else for (const i of [0, 1]) await sql.raw(`drop trigger if exists auth_epoch_realms_${i}`).execute(db);
}
