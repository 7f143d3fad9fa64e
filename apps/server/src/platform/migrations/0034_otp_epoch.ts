/**
 * An account's OTP being turned on or off bumps the auth epoch too (migrations 0021, 0031,
 * 0032): GET /api/users/account answers the OTP state with the rest of the account, kept per
 * guard cache entry (issue 11), so that state must move the epoch when it changes — on any
 * instance, or by an operator's SQL. Only `enabled` (and a row appearing or going) counts: a
 * sign-in's accepted time step (last_step) changes nothing cached and bumps nothing.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

const BUMP = 'update auth_epoch set version = version + 1 where id = 1';
const EVENTS = ['insert', 'update of enabled', 'delete'];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // BEFORE the statement, as 0021's triggers: the epoch row's lock comes before any row lock.
    await sql
      .raw(`create trigger auth_epoch_account_otp before ${EVENTS.join(' or ')} on account_otp for each statement execute function umbo_bump_auth_epoch()`)
      .execute(db);
  } else {
    for (const [i, event] of EVENTS.entries()) {
      await sql.raw(`create trigger auth_epoch_account_otp_${i} after ${event} on account_otp for each row begin ${BUMP}; end`).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql.raw('drop trigger if exists auth_epoch_account_otp on account_otp').execute(db);
  else for (const i of EVENTS.keys()) await sql.raw(`drop trigger if exists auth_epoch_account_otp_${i}`).execute(db);
}
