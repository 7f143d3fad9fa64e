/**
 * First start on an empty database (issue 2): realm `master`, the built-in roles and the
 * account `admin`. Later starts change nothing but keep built-in role definitions current.
 */
import type { Clock } from '../platform/clock.js';
import { newId, randomString } from '../platform/crypto.js';
import type { Db } from '../platform/db.js';
import { hashPassword } from '../auth/passwords.js';
import { createAccountRepo } from '../accounts/accounts.repo.js';
import { BUILTIN_ROLES } from '../perm/builtin-roles.js';
import { MASTER_REALM } from '../perm/perm.service.js';
import { createRoleRepo } from '../perm/roles.repo.js';
import { createRealmRepo } from './realms.repo.js';
import { defaultRealmSettings, type RealmSettings } from './realm-settings.js';

export interface BootstrapResult {
  /** set only on the start that created the admin with a generated password */
  generatedAdminPassword?: string;
  createdAdmin: boolean;
}

export async function bootstrap(
  db: Db,
  clock: Clock,
  adminPassword?: string,
  masterSettings: Partial<RealmSettings> = {},
): Promise<BootstrapResult> {
  const now = clock.now();
  const roles = createRoleRepo(db);
  for (const role of BUILTIN_ROLES) await roles.upsertBuiltinRole({ ...role, permissions: [...role.permissions] }, now);

  const realms = createRealmRepo(db);
  if (await realms.findRealmById(MASTER_REALM)) return { createdAdmin: false };

  const password = adminPassword ?? randomString(20);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await createRealmRepo(trx).insertRealm({
      id: MASTER_REALM,
      name: 'master',
      description: 'platform administrators',
      settings: JSON.stringify({ ...defaultRealmSettings(), ...masterSettings }),
      created_at: now,
      updated_at: now,
    });
    const id = newId();
    await createAccountRepo(trx).insertAccount({
      id,
      realm_id: MASTER_REALM,
      kind: 'person',
      owner_id: null,
      username: 'admin',
      username_norm: 'admin',
      email: null,
      email_norm: null,
      phone: null,
      password_hash: passwordHash,
      avatar: '',
      disabled: 0,
      activated: 1,
      force_password: 0,
      regist_area: '',
      last_login_at: null,
      last_login_area: '',
      created_at: now,
      updated_at: now,
    });
    await createRoleRepo(trx).bindRole(id, 'admin', MASTER_REALM, now);
  });
  return { createdAdmin: true, generatedAdminPassword: adminPassword ? undefined : password };
}
