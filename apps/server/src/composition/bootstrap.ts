/**
 * First start on an empty database (issue 2): realm `master`, the built-in roles and the
 * account `admin`. Later starts change nothing but keep built-in role definitions current.
 * Several instances may start at once on one database (issue 9, DESIGN.md §1): exactly one
 * of them creates the realm and the admin, and only that one reports a generated password.
 */
import type { Clock } from '../platform/clock.js';
import { randomString } from '../platform/crypto.js';
import { isUniqueViolation, type Db } from '../platform/db.js';
import { hashPassword } from '../auth/passwords.js';
import { createAccountRepo } from '../accounts/accounts.repo.js';
import { BUILTIN_ROLES } from '../perm/builtin-roles.js';
import { MASTER_REALM } from '../perm/perm.service.js';
import { createRoleRepo } from '../perm/roles.repo.js';
import { createRealmRepo } from '../realms/realms.repo.js';
import { defaultRealmSettings, type RealmSettings } from '../realms/realm-settings.js';
import type { AppContext } from './context.js';

export interface BootstrapResult {
  /** set only on the start that created the admin with a generated password */
  generatedAdminPassword?: string;
  createdAdmin: boolean;
}

export async function bootstrap(db: Db, clock: Clock, adminPassword?: string, masterSettings: Partial<RealmSettings> = {}): Promise<BootstrapResult> {
  const now = clock.now();
  const roles = createRoleRepo(db);
  for (const role of BUILTIN_ROLES) await roles.upsertBuiltinRole({ ...role, permissions: [...role.permissions] }, now);

  const realms = createRealmRepo(db);
  if (await realms.findRealmById(MASTER_REALM)) return { createdAdmin: false };

  const password = adminPassword ?? randomString(20);
  const passwordHash = await hashPassword(password);
  try {
    await createFirstAdmin(db, now, passwordHash, masterSettings);
  } catch (err) {
    // Another instance created the realm between our look and our insert: it did the work.
    if (isUniqueViolation(err) && (await realms.findRealmById(MASTER_REALM))) return { createdAdmin: false };
    throw err;
  }
  return { createdAdmin: true, generatedAdminPassword: adminPassword ? undefined : password };
}

/**
 * One transaction that starts with the realm's row: its primary key is the lock. A second
 * instance inserting `master` at the same moment waits for this transaction (PostgreSQL's
 * unique index, SQLite's write lock) and then fails on the key, having written nothing; if
 * this one rolls back instead, the other's insert goes through and it creates the admin.
 */
async function createFirstAdmin(db: Db, now: number, passwordHash: string, masterSettings: Partial<RealmSettings>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await createRealmRepo(trx).insertRealm({
      id: MASTER_REALM,
      name: 'master',
      description: 'platform administrators',
      settings: JSON.stringify({ ...defaultRealmSettings(), ...masterSettings }),
      created_at: now,
      updated_at: now,
    });
    const admin = await createAccountRepo(db).insertPerson({ realmId: MASTER_REALM, username: 'admin', passwordHash, now }, trx);
    await createRoleRepo(trx).bindRole(admin.id, 'admin', MASTER_REALM, now);
  });
}

/**
 * Issue 12: every realm has a default client (its sign-in pages' own). Realms made before it
 * existed (master included) get theirs here, at each start; a realm that has one is left as it
 * is. Safe when instances start at once (clients/default-client.ts: the unique (realm_id,
 * client_id) index keeps one row, the setting is written compare-and-set).
 */
export async function ensureDefaultClients(ctx: Pick<AppContext, 'repos' | 'services'>): Promise<void> {
  const page = 500;
  for (let offset = 0; ; offset += page) {
    const realms = await ctx.repos.realms.listRealms({ limit: page, offset });
    for (const realm of realms) await ctx.services.clients.ensureDefault(realm.id);
    if (realms.length < page) return;
  }
}
