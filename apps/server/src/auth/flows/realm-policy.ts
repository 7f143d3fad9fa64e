/**
 * A realm's sign-in policy as the public flows read it (issue 3): the enabled login,
 * registration and find-back methods, login regions, activation, captcha policy and the
 * realm's mail and SMS configuration — all from the realm's settings record (SPEC §3 names).
 */
import { defaultRealmSettings, type RealmSettings } from '../../realms/realm-settings.js';
import type { RealmRepo } from '../../realms/realms.repo.js';
import { assertThat, fail } from '../../platform/errors.js';
import type { RealmMailConfig, SmsProviderConfig } from '../../notify/types.js';
import { countryOf } from '../../codes/phone.js';

export interface FlowSettings extends RealmSettings {
  /** SPEC §3 email config group; absent → the global SMTP (or the outbox) */
  email?: RealmMailConfig;
  /** absent → the global SMS provider (default outbox) */
  sms?: SmsProviderConfig;
}

export type MethodList = 'backend_support_login_method' | 'backend_support_regist_method' | 'backend_support_find_back_method';

export function createRealmPolicy(realms: RealmRepo) {
  async function settingsOf(realmId: string): Promise<FlowSettings> {
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    let stored: Partial<FlowSettings> = {};
    try {
      stored = JSON.parse(realm.settings) as Partial<FlowSettings>;
    } catch {
      // A damaged record falls back to defaults rather than failing every sign-in.
    }
    return { ...defaultRealmSettings(), ...stored };
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
