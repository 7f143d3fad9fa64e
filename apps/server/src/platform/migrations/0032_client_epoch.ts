/**
 * OAuth client changes bump the auth epoch too (migrations 0021, 0031): the clients that
 * authenticate at the provider's back-channel endpoints are kept in each instance's memory
 * (clients/client-cache.ts) and used only while the epoch they were read under is current, so a
 * client disabled, deleted, its secret regenerated or its source ranges narrowed — through umbo
 * on any instance, or by an operator's SQL — is refused everywhere at the next request.
 * Inserts need no bump (nothing cached can refer to a client that did not exist); client edits
 * are rare, so the other caches being cleared with them costs nothing that matters.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const BUMP = 'update auth_epoch set version = version + 1 where id = 1';

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // BEFORE the statement, as 0021's triggers: the epoch row's lock comes before any row lock.
    await sql
      .raw('create trigger auth_epoch_oauth_clients before update or delete on oauth_clients for each statement execute function umbo_bump_auth_epoch()')
      .execute(db);
  } else {
    await sql.raw(`create trigger auth_epoch_oauth_clients_0 after update on oauth_clients for each row begin ${BUMP}; end`).execute(db);
    await sql.raw(`create trigger auth_epoch_oauth_clients_1 after delete on oauth_clients for each row begin ${BUMP}; end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql.raw('drop trigger if exists auth_epoch_oauth_clients on oauth_clients').execute(db);
  else for (const i of [0, 1]) await sql.raw(`drop trigger if exists auth_epoch_oauth_clients_${i}`).execute(db);
}
