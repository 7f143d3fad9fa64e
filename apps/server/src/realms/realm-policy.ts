/**
 * A realm's sign-in policy as the sign-in, registration and recovery flows read it (issue 3):
 * the enabled login, registration and find-back methods, login regions, activation, captcha
 * policy and the realm's mail and SMS configuration — all from the realm's settings record
 * (SPEC §3 names).
 */
import { countryOf } from '../accounts/phone.js';
import { assertThat, fail } from '../platform/errors.js';
import { readRealmSettings, type StoredRealmSettings } from './realm-settings.js';
import type { RealmRepo } from './realms.repo.js';

/** The settings in force, with the realm's own mail group (absent → global SMTP or the outbox) and SMS group (absent → the global provider). */
export type FlowSettings = StoredRealmSettings;

export type MethodList = 'backend_support_login_method' | 'backend_support_regist_method' | 'backend_support_find_back_method';

export function createRealmPolicy(realms: RealmRepo) {
  /** 1004 for a realm that does not exist. */
  async function settingsOf(realmId: string): Promise<FlowSettings> {
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    return readRealmSettings(realm.settings);
  }

  return { settingsOf };
}

/** A method that is off is refused by the server too (issue 3): 1014. */
export function assertMethod(settings: FlowSettings, list: MethodList, method: string): void {
  if (!settings[list].includes(method)) throw fail('METHOD_DISABLED', { method });
}

/** Phone flows only for the realm's login regions (country calling codes). */
export function assertRegion(settings: FlowSettings, e164: string): void {
  const regions = settings.backend_support_login_regions;
  if (regions.length > 0 && !regions.includes(countryOf(e164))) throw fail('METHOD_DISABLED', { region: countryOf(e164) });
}

export type RealmPolicy = ReturnType<typeof createRealmPolicy>;
