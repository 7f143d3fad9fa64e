/**
 * Ordered migrations, run at start on SQLite and PostgreSQL alike. Append only:
 * a released migration is never edited; names say what they do.
 */
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from '../db.js';
import * as m0001 from './0001_create_core.js';
import * as m0002codes from './0002_codes_and_outbox.js';
import * as m0010throttle from './0010_login_throttle.js';
import * as m0011otp from './0011_account_otp.js';
import * as m0012account from './0012_account_settings_and_avatars.js';
import * as m0013names from './0013_normalise_account_names.js';
import * as m0014keycheck from './0014_instance_key_check.js';

const migrations: Record<string, Migration> = {
  '0001_create_core': m0001,
  '0002_codes_and_outbox': m0002codes,
  '0010_login_throttle': m0010throttle,
  '0011_account_otp': m0011otp,
  '0012_account_settings_and_avatars': m0012account,
  '0013_normalise_account_names': m0013names,
  '0014_instance_key_check': m0014keycheck,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `schema`: on PostgreSQL, the schema the migration tables live in. Without it Kysely looks
 * for its lock table in any schema on the server and may find another tenant's.
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
