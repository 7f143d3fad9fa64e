/**
 * Step 2 of the composition root: every service, built bottom up. Each line uses only what the
 * lines above it built — no closure over something declared later — in the order of the areas:
 *
 *   notify (delivery, outbox, security notices) · realm policy → codes, captcha → perm,
 *   sessions, sign-in throttle → one-time password → sign-in (password form, codes,
 *   registration, recovery, ftoken) → the user's own account → realm administration
 *
 * The one-time password and the security notices come before the sign-in flows that use
 * them: neither depends on a flow, which is how issue 9 broke the old cycle between them.
 * A new area adds its services here, as one more step at its place in that order.
 */
import { normaliseMobile } from '../accounts/phone.js';
import { createCodeSignInService } from '../auth/flows/code-sign-in.service.js';
import type { FlowDeps } from '../auth/flows/deps.js';
import { createFTokenService } from '../auth/flows/ftoken.service.js';
import { createRecoveryService } from '../auth/flows/recovery.service.js';
import { createRegistrationService } from '../auth/flows/registration.service.js';
import { createLoginService } from '../auth/login.service.js';
import { createSessionService } from '../auth/sessions.service.js';
import { createReauth } from '../auth/throttle/reauth.js';
import { createThrottleService } from '../auth/throttle/throttle.service.js';
import { createCaptchaService } from '../captcha/captcha.service.js';
import { createCodeService } from '../codes/codes.service.js';
import { createMailLinkService } from '../codes/mail-links.service.js';
import { createBindCodes } from '../me/binding.codes.js';
import { createBindingService } from '../me/binding.service.js';
import { createMeService } from '../me/me.service.js';
import { createPreferencesReader } from '../me/me.settings.js';
import type { NotifyConfig } from '../notify/config.js';
import { createNotifyService } from '../notify/notify.service.js';
import { createOutboxService } from '../notify/outbox.service.js';
import { createSecurityNotices } from '../notify/security-notices.js';
import { createOtpService } from '../otp/otp.service.js';
import { createPermService } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Secrets } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';
import { createRealmPolicy } from '../realms/realm-policy.js';
import { createRealmSettingsService } from '../realms/realm-settings.service.js';
import type { Repos, Stores } from './repos.js';

export interface ServiceInputs {
  config: Config;
  clock: Clock;
  secrets: Secrets;
  log: Logger;
  repos: Repos;
  stores: Stores;
  transact: Transact;
  notifyConfig: NotifyConfig;
}

export function createServices(i: ServiceInputs) {
  const { config, clock, secrets, repos, stores, transact } = i;
  const siteTitle = config.siteTitle;

  // notify: delivery of mail and SMS, the outbox, security notices
  const notify = createNotifyService({ config: i.notifyConfig, outbox: repos.outbox, secrets, clock, log: i.log.child({ name: 'notify' }) });
  const outbox = createOutboxService({ outbox: repos.outbox, secrets });
  const realmPolicy = createRealmPolicy(repos.realms);
  const notices = createSecurityNotices({ notify, deliveryOf: realmPolicy.settingsOf, preferencesOf: createPreferencesReader(repos.me), siteTitle, clock });

  // codes and captcha
  const codes = createCodeService({ store: stores.codes, secrets, clock });
  const mailLinks = createMailLinkService({ repo: repos.mailLinks, secrets, clock });
  const captcha = createCaptchaService({ store: stores.codes, secrets, clock, settingsOf: realmPolicy.settingsOf });

  // permissions, sessions, sign-in throttling and the one-time password
  const perm = createPermService(repos.roles);
  const sessions = createSessionService({ sessions: repos.sessions, accounts: repos.accounts, secrets, clock, idleMs: config.sessionIdleMs });
  const throttle = createThrottleService({ store: stores.throttle, secrets, clock });
  const reauth = createReauth({ throttle });
  const otp = createOtpService({ repo: repos.otp, secrets, clock, throttle, reauth, notices, issuer: siteTitle, transact });

  // signing in: the password form, then the public flows by code, registration and recovery
  const login = createLoginService({ accounts: repos.accounts, sessions, clock, throttle, otp, captcha, settingsOf: realmPolicy.settingsOf });
  const flows: FlowDeps = {
    publicUrl: config.publicUrl,
    siteTitle,
    clock,
    secrets,
    transact,
    store: stores.codes,
    accounts: repos.accounts,
    policy: realmPolicy,
    codes,
    mailLinks,
    captcha,
    notify,
    sessions,
    secondFactor: otp,
    throttle,
    notices,
  };
  const codeSignIn = createCodeSignInService(flows);
  const registration = createRegistrationService(flows);
  const recovery = createRecoveryService(flows);
  const ftoken = createFTokenService(flows);

  // the signed-in user's own account
  const me = createMeService({
    accounts: repos.accounts,
    me: repos.me,
    realms: repos.realms,
    sessions: repos.sessions,
    reauth,
    clock,
    notices,
    otpEnabled: otp.isEnabled,
    transact,
  });
  const bindCodes = createBindCodes({ codes, notify, siteTitle, deliveryOf: realmPolicy.settingsOf });
  const binding = createBindingService({ accounts: repos.accounts, reauth, notices, clock, normaliseMobile, codes: bindCodes });

  // administration of realms
  const realmSettings = createRealmSettingsService({ realms: repos.realms, secrets, clock });

  return {
    notify,
    outbox,
    realmPolicy,
    notices,
    codes,
    mailLinks,
    captcha,
    perm,
    sessions,
    throttle,
    reauth,
    otp,
    login,
    codeSignIn,
    registration,
    recovery,
    ftoken,
    me,
    binding,
    realmSettings,
  };
}

export type Services = ReturnType<typeof createServices>;
