/** Everything a request handler may need, built once per process and passed down explicitly. */
import type { Config } from './platform/config.js';
import type { Clock } from './platform/clock.js';
import { createSecrets, type Secrets } from './platform/crypto.js';
import type { DbHandle } from './platform/db.js';
import { createAccountRepo } from './accounts/accounts.repo.js';
import { createRealmRepo } from './realms/realms.repo.js';
import { createSessionRepo } from './auth/sessions.repo.js';
import { createSessionService } from './auth/sessions.service.js';
import { createLoginService } from './auth/login.service.js';
import { createRoleRepo } from './perm/roles.repo.js';
import { createPermService } from './perm/perm.service.js';

export function createContext(config: Config, dbh: DbHandle, clock: Clock) {
  const db = dbh.db;
  const secrets: Secrets = createSecrets(config.masterKey);
  const repos = {
    accounts: createAccountRepo(db),
    realms: createRealmRepo(db),
    sessions: createSessionRepo(db),
    roles: createRoleRepo(db),
  };
  const sessions = createSessionService({ sessions: repos.sessions, accounts: repos.accounts, secrets, clock });
  const services = {
    sessions,
    login: createLoginService({ accounts: repos.accounts, sessions, clock }),
    perm: createPermService(repos.roles),
  };
  return { config, dbh, db, clock, secrets, repos, services };
}

export type AppContext = ReturnType<typeof createContext>;
