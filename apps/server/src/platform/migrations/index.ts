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
import * as m0015audit from './0015_audit_events.js';
import * as m0016branding from './0016_realm_branding.js';
import * as m0017accountlist from './0017_account_list_indexes.js';
import * as m0018services from './0018_service_accounts.js';
import * as m0019roles from './0019_role_indexes.js';
import * as m0020audit from './0020_audit_indexes.js';
import * as m0021authepoch from './0021_auth_epoch.js';
import * as m0022oauth from './0022_oauth_provider.js';
import * as m0023authtime from './0023_session_auth_time.js';
import * as m0024keygen from './0024_signing_key_generation.js';
import * as m0025pki from './0025_pki.js';
import * as m0026expiry from './0026_pki_expiry_notices.js';
import * as m0027itshadow from './0027_it_shadow_accounts.js';
import * as m0028bigdata from './0028_bigdata_event_queue.js';
import * as m0029federated from './0029_federated_identities.js';
import * as m0030aliliving from './0030_aliliving_links.js';
import * as m0031realmEpoch from './0031_realm_epoch.js';
import * as m0032clientEpoch from './0032_client_epoch.js';
import * as m0033accountListCovering from './0033_account_list_covering.js';
import * as m0034otpEpoch from './0034_otp_epoch.js';
import * as m0035accountContains from './0035_account_contains_search.js';
import * as m0036accountContainsPunctuation from './0036_account_contains_punctuation.js';
import * as m0037accountTallies from './0037_account_tallies.js';
import * as m0038accountNameListCovering from './0038_account_name_list_covering.js';

const migrations: Record<string, Migration> = {
  '0001_create_core': m0001,
  '0002_codes_and_outbox': m0002codes,
  '0010_login_throttle': m0010throttle,
  '0011_account_otp': m0011otp,
  '0012_account_settings_and_avatars': m0012account,
  '0013_normalise_account_names': m0013names,
  '0014_instance_key_check': m0014keycheck,
  '0015_audit_events': m0015audit,
  '0016_realm_branding': m0016branding,
  '0017_account_list_indexes': m0017accountlist,
  '0018_service_accounts': m0018services,
  '0019_role_indexes': m0019roles,
  '0020_audit_indexes': m0020audit,
  '0021_auth_epoch': m0021authepoch,
  '0022_oauth_provider': m0022oauth,
  '0023_session_auth_time': m0023authtime,
  '0024_signing_key_generation': m0024keygen,
  '0025_pki': m0025pki,
  '0026_pki_expiry_notices': m0026expiry,
  '0027_it_shadow_accounts': m0027itshadow,
  '0028_bigdata_event_queue': m0028bigdata,
  '0029_federated_identities': m0029federated,
  '0030_aliliving_links': m0030aliliving,
  '0031_realm_epoch': m0031realmEpoch,
  '0032_client_epoch': m0032clientEpoch,
  '0033_account_list_covering': m0033accountListCovering,
  '0034_otp_epoch': m0034otpEpoch,
  '0035_account_contains_search': m0035accountContains,
  '0036_account_contains_punctuation': m0036accountContainsPunctuation,
  '0037_account_tallies': m0037accountTallies,
  '0038_account_name_list_covering': m0038accountNameListCovering,
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
