/**
 * Every instance of a deployment must run with the same MASTER_KEY (issue 9, DESIGN.md §1):
 * session tokens are stored as keyed hashes and secrets are sealed under keys derived from it,
 * so an instance with another key refuses every session the others issued and cannot open
 * what they sealed — without any error that says why. The database therefore keeps a check
 * value of the key, recorded by the first instance that starts on it, and an instance whose
 * key gives another value refuses to start, before it writes anything.
 */
import type { Kysely } from 'kysely';
import { ConfigError, type Config } from './config.js';
import { constantTimeEqual, createSecrets } from './crypto.js';
import type { Db } from './db.js';

/** migrations/0014_instance_key_check.ts; not in db.ts's Database: nothing else reads it. */
interface InstanceSettingsTable {
  name: string;
  value: string;
  created_at: number;
}
type SettingsDb = Kysely<{ instance_settings: InstanceSettingsTable }>;

export const KEY_CHECK_SETTING = 'master_key_check';

/**
 * A keyed hash of a fixed text under the key the service hashes tokens with (crypto.ts): equal
 * values mean the same key, and the value, like any stored token hash, says nothing about the key.
 */
export function keyCheckValue(masterKey: Buffer): string {
  return createSecrets(masterKey).hash('key-check', 'umbo key check v1');
}

/** Where this instance's key came from, in the words the operator needs. */
function keyOrigin(config: Pick<Config, 'masterKeySource'>): string {
  const s = config.masterKeySource;
  if (s.kind === 'env') return 'the MASTER_KEY variable';
  return s.created ? `${s.file}, generated just now because MASTER_KEY is not set` : `${s.file} (MASTER_KEY is not set)`;
}

/** `migrated`: the migrations ran before the refusal (only a database from before 0014). */
function mismatch(config: Pick<Config, 'masterKeySource'>, why: string, migrated = false): ConfigError {
  return new ConfigError(
    'MASTER_KEY',
    [
      `does not match this database: ${why}.`,
      `This instance's key comes from ${keyOrigin(config)}.`,
      'Every instance sharing a database must run with the same MASTER_KEY: set MASTER_KEY on this instance to the value',
      'the others use (an instance started without MASTER_KEY keeps its key in DATA_DIR/master.key).',
      'If this database is new and holds nothing you need, empty it (drop its tables or schema) and start again:',
      'the first instance to start records its key.',
      migrated ? 'This instance recorded no key and stops.' : 'This instance changed nothing in the database and stops.',
    ].join('\n  '),
  );
}

/**
 * A database that holds data but no check value (written before migration 0014): if anything
 * in it is sealed, the key must open it, or the first instance to start would record a wrong
 * key as the right one. Messages and one-time-password secrets are the sealed columns read.
 */
async function opensSealedData(db: Db, masterKey: Buffer): Promise<boolean> {
  const samples: string[] = [];
  const message = await db.selectFrom('outbox').select('subject').limit(1).executeTakeFirst();
  if (message) samples.push(message.subject);
  const otp = await db
    .selectFrom('account_otp')
    .select(['secret', 'pending_secret'])
    .where((eb) => eb.or([eb('secret', 'is not', null), eb('pending_secret', 'is not', null)]))
    .limit(1)
    .executeTakeFirst();
  const sealed = otp?.secret ?? otp?.pending_secret;
  if (sealed) samples.push(sealed);
  const secrets = createSecrets(masterKey);
  return samples.every((s) => {
    try {
      secrets.decrypt(s);
      return true;
    } catch {
      return false;
    }
  });
}

type KeyConfig = Pick<Config, 'masterKey' | 'masterKeySource'>;

const readCheck = async (db: Db) =>
  (await (db as unknown as SettingsDb).selectFrom('instance_settings').select('value').where('name', '=', KEY_CHECK_SETTING).executeTakeFirst())?.value;

/**
 * Before the migrations, read only: an instance with another key must not migrate the
 * others' database either (a newer release started with the wrong key). A database from
 * before migration 0014, or an empty one, has nothing to compare yet.
 */
export async function verifyRecordedKey(db: Db, config: KeyConfig): Promise<void> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === 'instance_settings')) return;
  const stored = await readCheck(db);
  if (stored !== undefined && !constantTimeEqual(stored, keyCheckValue(config.masterKey))) {
    throw mismatch(config, 'the first instance that started on it recorded a different key');
  }
}

/**
 * Records the key's check value on the first start and compares it on every start. Run after
 * the migrations and before anything else writes. Several instances starting at once on an
 * empty database: one insert wins, the others read its value and compare with it.
 */
export async function checkMasterKey(db: Db, config: KeyConfig, now: number): Promise<void> {
  const settings = db as unknown as SettingsDb;
  const expected = keyCheckValue(config.masterKey);
  let stored = await readCheck(db);
  if (stored === undefined) {
    if (!(await opensSealedData(db, config.masterKey))) {
      throw mismatch(config, 'secrets stored in it were sealed under another key', true);
    }
    await settings
      .insertInto('instance_settings')
      .values({ name: KEY_CHECK_SETTING, value: expected, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    stored = await readCheck(db);
  }
  if (stored === undefined || !constantTimeEqual(stored, expected)) {
    throw mismatch(config, 'the first instance that started on it recorded a different key');
  }
}

/**
 * With PostgreSQL, instances are expected to be several; a key kept in one instance's
 * DATA_DIR is that instance's alone. Said at every start, on stderr, until MASTER_KEY is set.
 */
export function sharedKeyWarning(config: Pick<Config, 'databaseUrl' | 'masterKeySource'>): string | undefined {
  const s = config.masterKeySource;
  if (s.kind === 'env' || !/^postgres(ql)?:\/\//.test(config.databaseUrl)) return undefined;
  return [
    '',
    '  WARNING: MASTER_KEY is not set, and the database is PostgreSQL.',
    `  This instance uses the key in ${s.file}${s.created ? ', generated just now' : ''}.`,
    '  Every instance that shares this database needs the SAME MASTER_KEY: set MASTER_KEY (64 hex',
    '  characters, e.g. the content of that file) on every instance. An instance with another key',
    '  refuses to start.',
    '',
    '',
  ].join('\n');
}
