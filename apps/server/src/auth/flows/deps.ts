/** What the public flows are built from, wired once in context.ts. */
import type { Account } from '../../accounts/accounts.repo.js';
import type { Locale } from '@umbo/contracts';
import type { AccountRepo } from '../../accounts/accounts.repo.js';
import type { CaptchaService } from '../../captcha/captcha.service.js';
import type { CodeService } from '../../codes/codes.service.js';
import type { MailLinkService } from '../../codes/mail-links.service.js';
import type { CodeStore } from '../../codes/store.js';
import type { NotifyService } from '../../notify/notify.service.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import type { Db } from '../../platform/db.js';
import type { SecondFactor } from '../login.service.js';
import type { SessionService } from '../sessions.service.js';
import type { FlowRepo } from './flows.repo.js';
import type { RealmPolicy } from './realm-policy.js';

export interface FlowDeps {
  db: Db;
  publicUrl: string;
  siteTitle: string;
  clock: Clock;
  secrets: Secrets;
  store: CodeStore;
  accounts: AccountRepo;
  flows: FlowRepo;
  policy: RealmPolicy;
  codes: CodeService;
  mailLinks: MailLinkService;
  captcha: CaptchaService;
  notify: NotifyService;
  sessions: SessionService;
  /** the OTP check of the password form (otp/otp.service.ts), when wired */
  secondFactor?: SecondFactor | undefined;
  /** after a recovered password: lift the sign-in lock, tell the owner (`meta`: who reset it) */
  afterPasswordReset?: ((account: Account, meta: RequestMeta) => Promise<void>) | undefined;
}

/** Who is asking: for rate limits, session records and the language of messages. */
export interface RequestMeta {
  ip: string;
  userAgent: string;
  locale: Locale;
}
