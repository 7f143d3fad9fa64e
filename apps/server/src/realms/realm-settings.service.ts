/**
 * Reading and changing a realm's settings record (SPEC §3) for administrators: who may
 * (the `domain` permission in that realm, or admin of the master realm: A-39), what is
 * kept when a field is omitted, and how the record is written (one compare-and-set update,
 * so a refused change writes nothing and a concurrent one is never lost).
 */
import type { z } from 'zod';
import type { RealmSettingsView, realmSettingsPatch } from '@umbo/contracts';
import type { Clock } from '../platform/clock.js';
import type { Secrets } from '../platform/crypto.js';
import { assertThat, fail } from '../platform/errors.js';
import { MASTER_REALM } from '../perm/perm.service.js';
import { defaultRealmSettings, parseStoredSettings, readRealmSettings, type StoredRealmSettings } from './realm-settings.js';
import { emailView, mergeEmail, mergeSms, smsView } from './realm-settings.groups.js';
import type { RealmRepo } from './realms.repo.js';

export type RealmSettingsPatchInput = z.output<typeof realmSettingsPatch>;

/** Attempts before a PATCH that keeps meeting concurrent writes gives up (1202). */
const CAS_ATTEMPTS = 3;

function toView(realmId: string, s: StoredRealmSettings): RealmSettingsView {
  return {
    realmId,
    backend_type: s.backend_type,
    backend_support_login_method: s.backend_support_login_method,
    backend_support_regist_method: s.backend_support_regist_method,
    backend_support_find_back_method: s.backend_support_find_back_method,
    backend_support_login_regions: s.backend_support_login_regions,
    needActive: s.needActive,
    activeEmailTpl: s.activeEmailTpl,
    resetEmailTpl: s.resetEmailTpl,
    logo_img_url: s.logo_img_url,
    icon_img_url: s.icon_img_url,
    default_client_id: s.default_client_id,
    accountCertValidity: s.accountCertValidity,
    realmMiddleCertValidity: s.realmMiddleCertValidity,
    captchaPolicy: s.captchaPolicy,
    revealMissingAccounts: s.revealMissingAccounts,
    passwordMinLength: s.passwordMinLength,
    email: emailView(s.email),
    sms: smsView(s.sms),
  };
}

export function createRealmSettingsService(deps: { realms: RealmRepo; secrets: Secrets; clock: Clock }) {
  const { realms, secrets, clock } = deps;
  const seal = (plain: string) => secrets.encrypt(plain);

  /**
   * The guard already decided `domain.<action>` in this realm (config.realm), before the
   * lookup, so a refusal never told whether the realm exists.
   */
  async function load(realmId: string) {
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    return realm;
  }

  async function get(realmId: string): Promise<RealmSettingsView> {
    const realm = await load(realmId);
    return toView(realmId, readRealmSettings(realm.settings));
  }

  /** The stored record after `patch`: only the fields sent change; unknown stored keys stay. */
  function apply(realmId: string, stored: Partial<StoredRealmSettings>, patch: RealmSettingsPatchInput): Partial<StoredRealmSettings> {
    const { email, sms, ...plain } = patch;
    const next: Partial<StoredRealmSettings> = { ...stored, ...plain };
    if (email === null) delete next.email;
    else if (email) next.email = mergeEmail(stored.email, email, seal);
    if (sms === null) delete next.sms;
    else if (sms) next.sms = mergeSms(stored.sms, sms, seal);
    const merged = { ...defaultRealmSettings(), ...next };
    // DESIGN.md §4: the account CA is issued under the realm intermediate, so it cannot outlive it.
    if (merged.accountCertValidity > merged.realmMiddleCertValidity) {
      const field = patch.accountCertValidity !== undefined ? 'accountCertValidity' : 'realmMiddleCertValidity';
      throw fail('INVALID_PARAMETER', { field, reason: 'accountCertValidity must not exceed realmMiddleCertValidity' });
    }
    // The console's administrators sign in to the master realm by password (SPEC §4); turning
    // it off there would lock them out of the very screen that turns it back on.
    if (realmId === MASTER_REALM && !merged.backend_support_login_method.includes('password')) {
      throw fail('INVALID_PARAMETER', { field: 'backend_support_login_method', reason: 'the master realm keeps password sign-in' });
    }
    return next;
  }

  async function update(realmId: string, patch: RealmSettingsPatchInput): Promise<RealmSettingsView> {
    let realm = await load(realmId);
    for (let attempt = 1; ; attempt++) {
      const next = apply(realmId, parseStoredSettings(realm.settings), patch);
      if (await realms.updateRealmSettings(realmId, realm.settings, JSON.stringify(next), clock.now())) {
        return toView(realmId, { ...defaultRealmSettings(), ...next });
      }
      if (attempt >= CAS_ATTEMPTS) throw fail('RETRY_LATER');
      const again = await realms.findRealmById(realmId);
      assertThat(again, 'NOT_FOUND');
      realm = again;
    }
  }

  return { get, update };
}

export type RealmSettingsService = ReturnType<typeof createRealmSettingsService>;
