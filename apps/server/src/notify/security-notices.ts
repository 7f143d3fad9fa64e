/**
 * Security notices (ASVS 5.0 V6.3.7, ASVS 4 V2.5.x): after a change to how an account signs
 * in — password changed or reset, OTP on or off, email or phone bound, changed or removed —
 * its owner is told what happened, when and from which IP, so that a change they did not make
 * does not go unnoticed. By mail when the account has an email and `securityEmail` is on, by
 * SMS when it has a phone and `securitySms` is on.
 *
 * The notice goes to the addresses the account had BEFORE the change: callers pass the
 * account as it was, so an email change warns the old mailbox, which an attacker who took
 * over the session does not control.
 *
 * Delivery is deferred (notify.defer): the answer never waits for it, and a delivery failure
 * is logged, never turned into an error of the change itself.
 */
import type { Locale } from '@umbo/contracts';
import type { Account } from '../accounts/accounts.repo.js';
import type { Clock } from '../platform/clock.js';
import type { NotifyService, RealmDelivery } from './notify.service.js';
import { securityNoticeMail, securityNoticeSms, type SecurityEvent } from './templates.js';

export type { SecurityEvent };

/** Who made the change: the IP shown in the notice, and the language when the account chose none. */
export interface NoticeMeta {
  ip: string;
  locale: Locale;
}

export interface SecurityNotices {
  /** Queues the notice for `account` (as it was before the change); returns at once. */
  send(account: Account, event: SecurityEvent, meta: NoticeMeta): void;
}

/** What the account chose (me/me.settings.ts): which channels, and the language if any. */
export interface NoticePreferences {
  settings: { notifications: { securityEmail: boolean; securitySms: boolean } };
  /** undefined: the account never chose one, the request's language is used */
  language: Locale | undefined;
}

export interface SecurityNoticeDeps {
  /** the account's preferences, read when the notice is sent */
  preferencesOf(account: Pick<Account, 'id' | 'realm_id'>): Promise<NoticePreferences>;
  notify: NotifyService;
  deliveryOf(realmId: string): Promise<RealmDelivery>;
  siteTitle: string;
  clock: Clock;
}

export function createSecurityNotices(deps: SecurityNoticeDeps): SecurityNotices {
  const { notify } = deps;
  return {
    send(account, event, meta) {
      const { email, phone } = account;
      if (!email && !phone) return;
      // The time of the change, not of the delivery.
      const at = deps.clock.now();
      notify.defer('security-notice', async () => {
        const realmId = account.realm_id;
        const { settings, language } = await deps.preferencesOf(account);
        const delivery = await deps.deliveryOf(realmId);
        const input = { locale: language ?? meta.locale, site: deps.siteTitle, realm: realmId, username: account.username, event, at, ip: meta.ip };
        // One delivery per channel: a failing SMS gateway does not cost the mail, nor the reverse.
        if (email && settings.notifications.securityEmail) {
          notify.defer('security-notice-mail', () => notify.sendMail(realmId, delivery, securityNoticeMail(email, input)));
        }
        if (phone && settings.notifications.securitySms) {
          // No code: template-only gateways (Aliyun) refuse it rather than send an empty code.
          notify.defer('security-notice-sms', () =>
            notify.sendSms(realmId, delivery, { to: phone, text: securityNoticeSms(input), code: '', purpose: 'notice' }),
          );
        }
      });
    },
  };
}
