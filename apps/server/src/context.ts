/** Everything a request handler may need, built once per process and passed down explicitly. */
import type { DestinationStream } from 'pino';
import type { Config } from './platform/config.js';
import { createLogger } from './platform/logger.js';
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
import { createFlowServices } from './auth/flows/wiring.js';
import { createOwnAccountServices, type OwnAccountServices } from './account/wiring.js';
import { createRealmSettingsService } from './realms/realm-settings.service.js';

export interface ContextOptions {
  /** where log lines go (default: stdout); tests capture them to grep for secrets */
  logDestination?: DestinationStream;
}

export function createContext(config: Config, dbh: DbHandle, clock: Clock, opts: ContextOptions = {}) {
  const db = dbh.db;
  // One logger for the process: the HTTP server and every service log through it (redaction, issue 8).
  const log = createLogger(config.logLevel, opts.logDestination);
  const secrets: Secrets = createSecrets(config.masterKey);
  const repos = {
    accounts: createAccountRepo(db),
    realms: createRealmRepo(db),
    sessions: createSessionRepo(db),
    roles: createRoleRepo(db),
  };
  const sessions = createSessionService({ sessions: repos.sessions, accounts: repos.accounts, secrets, clock, idleMs: config.sessionIdleMs });
  // issue 3: codes, captcha, mail/SMS, registration, recovery, ftoken. Their code sign-ins ask
  // for the OTP through `secondFactor`, which is built below (it needs the flows' Redis).
  const flows = createFlowServices({
    config, db, clock, secrets, log: log.child({ name: 'notify' }), accounts: repos.accounts, realms: repos.realms, sessions,
    secondFactor: {
      checkAtLogin: (account, otp) => own.otp.checkAtLogin(account, otp),
      proveAtSignIn: (account, otp, ip, onWrong) => own.otp.proveAtSignIn(account, otp, ip, onWrong),
    },
    // a recovered password lifts the sign-in lock at once (A-31: reset stays usable),
    // and the owner is told (ASVS 5.0 V6.3.7) in case the reset was not theirs.
    afterPasswordReset: async (account, meta) => {
      await own.throttle.clearAccount({ realmId: account.realm_id, username: account.username });
      own.notices.send(account, 'password_reset', meta);
    },
  });
  // issue 3: sign-in throttling, OTP, the user's own account
  const own: OwnAccountServices = createOwnAccountServices({
    db, clock, secrets, siteTitle: config.siteTitle, accounts: repos.accounts, realms: repos.realms, sessionRepo: repos.sessions,
    redis: flows.redis, codes: flows.deps.codes, notify: flows.notify, deliveryOf: flows.policy.settingsOf,
  });
  const perm = createPermService(repos.roles);
  const services = {
    sessions,
    login: createLoginService({ accounts: repos.accounts, sessions, clock, throttle: own.throttle, otp: own.otp, captcha: flows.captcha, settingsOf: flows.policy.settingsOf }),
    perm,
    flows,
    own,
    // administration of a realm's settings record (realms/realm-settings.*)
    realmSettings: createRealmSettingsService({ realms: repos.realms, secrets, clock }),
  };
  return { config, dbh, db, clock, secrets, log, repos, services };
}

export type AppContext = ReturnType<typeof createContext>;
