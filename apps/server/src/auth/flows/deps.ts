/** What the public flows are built from (composition/services.ts builds it once). */
import type { Locale } from '@umbo/contracts';
import type { AccountRepo } from '../../accounts/accounts.repo.js';
import type { SignInEvents } from '../../audit/sign-in-events.js';
import type { CaptchaService } from '../../captcha/captcha.service.js';
import type { CodeService } from '../../codes/codes.service.js';
import type { MailLinkService } from '../../codes/mail-links.service.js';
import type { CodeStore } from '../../codes/store.js';
import type { NotifyService } from '../../notify/notify.service.js';
import type { SecurityNotices } from '../../notify/security-notices.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import type { Transact } from '../../platform/db.js';
import type { RealmPolicy } from '../../realms/realm-policy.js';
import type { Account } from '../../accounts/accounts.repo.js';
import type { FlowSettings } from '../../realms/realm-policy.js';
import type { SecondFactor } from '../login.service.js';
import type { SessionService } from '../sessions.service.js';
import type { ThrottleService } from '../throttle/throttle.service.js';

export interface FlowDeps {
  publicUrl: string;
  siteTitle: string;
  clock: Clock;
  secrets: Secrets;
  transact: Transact;
  /** the rate counters of registration and reset mails (database or Redis, like the codes) */
  store: CodeStore;
  accounts: AccountRepo;
  policy: RealmPolicy;
  codes: CodeService;
  mailLinks: MailLinkService;
  captcha: CaptchaService;
  notify: NotifyService;
  sessions: SessionService;
  /** the one-time-password check (otp/otp.service.ts): code sign-ins ask for it like the password form */
  secondFactor: SecondFactor;
  /** a recovered password lifts the sign-in lock */
  throttle: Pick<ThrottleService, 'clearAccount'>;
  /** the owner hears of a recovered password (ASVS 5.0 V6.3.7) */
  notices: SecurityNotices;
  /** the audit trail's sign-in events (issue 11) */
  signIns?: SignInEvents;
  /** realms whose accounts live behind an IT-interface backend (issue 14, federation/it) */
  federation?: FederatedFlows;
}

/** A phone number in E.164 and its country calling code. */
export interface FederatedPhone {
  e164: string;
  country: string;
}

/** Codes and registration delegated to a realm's IT backend (federation/it/it.service.ts); failures are 1303. */
export interface FederatedFlows {
  handles(settings: FlowSettings): boolean;
  /** the backend sends the code; answers its serial number */
  sendCode(realmId: string, settings: FlowSettings, phone: FederatedPhone, purpose: 'login' | 'register', ip: string): Promise<string>;
  /** the shadow account, undefined for a wrong code */
  codeSignIn(realmId: string, settings: FlowSettings, phone: FederatedPhone, code: string, serialNo: string): Promise<Account | undefined>;
  /** 1205 when the backend knows the user, 4006 for a wrong code */
  register(
    realmId: string,
    settings: FlowSettings,
    r: { username: string; password: string; email?: string | undefined; phone?: FederatedPhone | undefined; code?: string; serialNo?: string },
  ): Promise<Account>;
}

/** Who is asking: for rate limits, session records and the language of messages. */
export interface RequestMeta {
  ip: string;
  userAgent: string;
  locale: Locale;
}
