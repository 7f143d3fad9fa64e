/**
 * Builds sign-in throttling, OTP, security notices and the own-account services once per
 * process (context.ts calls this). Throttle counters live in Redis when the process has one (REDIS_URL), else
 * in the database — like the codes, so several server processes agree.
 */
import type { AccountRepo } from '../accounts/accounts.repo.js';
import type { SessionRepo } from '../auth/sessions.repo.js';
import { createReauth } from '../auth/throttle/reauth.js';
import { createRedisThrottleStore } from '../auth/throttle/redis-store.js';
import { createThrottleRepo } from '../auth/throttle/throttle.repo.js';
import { createThrottleService } from '../auth/throttle/throttle.service.js';
import type { CodeService } from '../codes/codes.service.js';
import { normaliseMobile } from '../codes/phone.js';
import type { NotifyService, RealmDelivery } from '../notify/notify.service.js';
import { createOtpRepo } from '../otp/otp.repo.js';
import { createOtpService } from '../otp/otp.service.js';
import type { Clock } from '../platform/clock.js';
import type { Secrets } from '../platform/crypto.js';
import type { Db } from '../platform/db.js';
import type { RedisClient } from '../platform/redis.js';
import type { RealmRepo } from '../realms/realms.repo.js';
import { createAccountSelfRepo } from './account.repo.js';
import { createAccountService } from './account.service.js';
import { createBindCodes } from './binding.codes.js';
import { createBindingService } from './binding.service.js';
import { createSecurityNotices } from './security-notices.js';

export interface OwnAccountWiringInput {
  db: Db;
  clock: Clock;
  secrets: Secrets;
  siteTitle: string;
  accounts: AccountRepo;
  realms: RealmRepo;
  sessionRepo: SessionRepo;
  redis?: RedisClient | undefined;
  /** codes and delivery for binding a phone or email (codes/, notify/) */
  codes: CodeService;
  notify: NotifyService;
  deliveryOf(realmId: string): Promise<RealmDelivery>;
}

export function createOwnAccountServices(i: OwnAccountWiringInput) {
  const throttleRepo = createThrottleRepo(i.db);
  const throttle = createThrottleService({ store: i.redis ? createRedisThrottleStore(i.redis) : throttleRepo, secrets: i.secrets, clock: i.clock });
  const reauth = createReauth({ throttle });
  const self = createAccountSelfRepo(i.db);
  const notices = createSecurityNotices({ self, notify: i.notify, deliveryOf: i.deliveryOf, siteTitle: i.siteTitle, clock: i.clock });
  const otp = createOtpService({ repo: createOtpRepo(i.db), secrets: i.secrets, clock: i.clock, throttle, reauth, notices, issuer: i.siteTitle });
  const account = createAccountService({ accounts: i.accounts, self, realms: i.realms, sessions: i.sessionRepo, reauth, clock: i.clock, notices, otpEnabled: otp.isEnabled });
  const binding = createBindingService({
    self,
    reauth,
    notices,
    clock: i.clock,
    normaliseMobile,
    codes: createBindCodes({ codes: i.codes, notify: i.notify, siteTitle: i.siteTitle, deliveryOf: i.deliveryOf }),
  });
  return {
    throttle,
    reauth,
    otp,
    account,
    binding,
    /** security notices, also sent after a recovered password (context.ts) */
    notices,
    /** periodic sweep of idle database counters (Redis keys expire by themselves) */
    async sweep(now: number): Promise<void> {
      await throttleRepo.deleteStaleCounters(now - 25 * 60 * 60 * 1000, now);
    },
  };
}

export type OwnAccountServices = ReturnType<typeof createOwnAccountServices>;
