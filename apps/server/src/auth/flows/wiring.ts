/**
 * Builds codes, captcha, notify and the public flows once per process (context.ts calls
 * this). Codes and counters live in Redis when REDIS_URL is set, else in the database.
 */
import type { Account, AccountRepo } from '../../accounts/accounts.repo.js';
import { createCaptchaService } from '../../captcha/captcha.service.js';
import { createCodeRepo } from '../../codes/codes.repo.js';
import { createCodeService } from '../../codes/codes.service.js';
import { createMailLinkRepo } from '../../codes/mail-links.repo.js';
import { createMailLinkService } from '../../codes/mail-links.service.js';
import { createRedisCodeStore } from '../../codes/redis-store.js';
import { loadNotifyConfig, type NotifyConfig } from '../../notify/config.js';
import { createNotifyService } from '../../notify/notify.service.js';
import { createOutboxRepo } from '../../notify/outbox.repo.js';
import { createOutboxService } from '../../notify/outbox.service.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Secrets } from '../../platform/crypto.js';
import type { Db } from '../../platform/db.js';
import type { Logger } from '../../platform/logger.js';
import { createRedis } from '../../platform/redis.js';
import type { RealmRepo } from '../../realms/realms.repo.js';
import type { SecondFactor } from '../login.service.js';
import type { SessionService } from '../sessions.service.js';
import { createCodeSignInService } from './code-sign-in.service.js';
import type { FlowDeps, RequestMeta } from './deps.js';
import { createFlowRepo } from './flows.repo.js';
import { createFTokenService } from './ftoken.service.js';
import { createRealmPolicy } from './realm-policy.js';
import { createRecoveryService } from './recovery.service.js';
import { createRegistrationService } from './registration.service.js';

export interface FlowWiringInput {
  config: Config;
  log: Logger;
  db: Db;
  clock: Clock;
  secrets: Secrets;
  accounts: AccountRepo;
  realms: RealmRepo;
  sessions: SessionService;
  /** the one-time-password check; code sign-ins ask for it like the password form */
  secondFactor?: SecondFactor;
  afterPasswordReset?: (account: Account, meta: RequestMeta) => Promise<void>;
  /** default: read from process.env (SMTP_URL, SMS_PROVIDER, …) */
  notifyConfig?: NotifyConfig;
}

export function createFlowServices(i: FlowWiringInput) {
  const redis = i.config.redisUrl ? createRedis(i.config.redisUrl) : undefined;
  const codeRepo = createCodeRepo(i.db);
  const store = redis ? createRedisCodeStore(redis) : codeRepo;
  const policy = createRealmPolicy(i.realms);
  const outboxRepo = createOutboxRepo(i.db);
  const mailLinkRepo = createMailLinkRepo(i.db);
  const notifyConfig = i.notifyConfig ?? loadNotifyConfig(process.env);
  const log = i.log;
  if (notifyConfig.sms.provider === 'outbox' || !notifyConfig.smtpUrl) {
    log.warn('no SMTP_URL or SMS_PROVIDER: messages, codes included, go to the outbox (readable by master administrators). You MUST configure delivery before production use.');
  }
  const d: FlowDeps = {
    db: i.db,
    publicUrl: i.config.publicUrl,
    siteTitle: i.config.siteTitle,
    clock: i.clock,
    secrets: i.secrets,
    store,
    accounts: i.accounts,
    flows: createFlowRepo(i.db),
    policy,
    codes: createCodeService({ store, secrets: i.secrets, clock: i.clock }),
    mailLinks: createMailLinkService({ repo: mailLinkRepo, secrets: i.secrets, clock: i.clock }),
    captcha: createCaptchaService({ store, secrets: i.secrets, clock: i.clock, settingsOf: policy.settingsOf }),
    notify: createNotifyService({ config: notifyConfig, outbox: outboxRepo, secrets: i.secrets, clock: i.clock, log }),
    sessions: i.sessions,
    secondFactor: i.secondFactor,
    afterPasswordReset: i.afterPasswordReset,
  };
  return {
    deps: d,
    redis,
    captcha: d.captcha,
    notify: d.notify,
    policy,
    codeSignIn: createCodeSignInService(d),
    registration: createRegistrationService(d),
    recovery: createRecoveryService(d),
    ftoken: createFTokenService(d),
    outbox: createOutboxService({ outbox: outboxRepo, secrets: i.secrets }),
    /** periodic sweep (expired codes and mail links, old counters, outbox older than 7 days) */
    async sweep(now: number): Promise<void> {
      await codeRepo.deleteStaleCodes(now, 24 * 60 * 60 * 1000);
      await mailLinkRepo.deleteExpiredMailLinkCodes(now, 24 * 60 * 60 * 1000);
      await outboxRepo.deleteOutboxMessagesBefore(now - 7 * 24 * 60 * 60 * 1000);
    },
    async close(): Promise<void> {
      await d.notify.settled();
      redis?.disconnect();
    },
  };
}

export type FlowServices = ReturnType<typeof createFlowServices>;
