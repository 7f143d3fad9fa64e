/**
 * A realm's sign-in policy as the sign-in, registration and recovery flows read it (issue 3):
 * the enabled login, registration and find-back methods, login regions, activation, captcha
 * policy and the realm's mail and SMS configuration — all from the realm's settings record
 * (SPEC §3 names).
 */
import { countryOf } from '../accounts/phone.js';
import { assertThat, fail } from '../platform/errors.js';
import { deepFreeze } from '../platform/shared-read.js';
import { readRealmSettings, type StoredRealmSettings } from './realm-settings.js';
import type { RealmRepo } from './realms.repo.js';

/** The settings in force, with the realm's own mail group (absent → global SMTP or the outbox) and SMS group (absent → the global provider). */
export type FlowSettings = StoredRealmSettings;

export type MethodList = 'backend_support_login_method' | 'backend_support_regist_method' | 'backend_support_find_back_method';

export interface RealmPolicyOptions {
  /**
   * The auth epoch (migration 0021; realm changes bump it since 0031). With it, settings are
   * kept in memory and used while the epoch they were read under is current: a sign-in read
   * them four times (the form, the throttle, the audit's data-centre tap, the Ali Living hook),
   * each a query and a JSON parse; now concurrent requests share one tiny read (read after the
   * call and shared between callers: auth/auth-cache.repo.ts `fresh`).
   */
  readEpoch?: () => Promise<number>;
  maxEntries?: number;
}

interface Entry {
  epoch: number;
  settings: FlowSettings;
}

export function createRealmPolicy(realms: RealmRepo, opts: RealmPolicyOptions = {}) {
  const freshEpoch = opts.readEpoch;
  const maxEntries = opts.maxEntries ?? 1000;
  const entries = new Map<string, Entry>();
  let epochSeen = 0;
  const counters = { hits: 0, misses: 0 };

  async function read(realmId: string): Promise<FlowSettings> {
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    return readRealmSettings(realm.settings);
  }

  /**
   * 1004 for a realm that does not exist. The answer is frozen (it may be shared): a caller
   * that needs to change settings copies them. Never called inside a transaction: its reads
   * go through the database handle, not the caller's transaction.
   */
  async function settingsOf(realmId: string): Promise<FlowSettings> {
    if (!freshEpoch) return read(realmId);
    const epoch = await freshEpoch();
    if (epoch !== epochSeen) {
      entries.clear();
      epochSeen = epoch;
    }
    const hit = entries.get(realmId);
    if (hit) {
      counters.hits++;
      return hit.settings;
    }
    counters.misses++;
    // Read after the epoch: a change committed in between moves the epoch on, and this entry,
    // stamped with the older one, is dropped at the next call.
    const settings = deepFreeze(await read(realmId));
    if (epoch === epochSeen) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(realmId, { epoch, settings });
    }
    return settings;
  }

  return {
    settingsOf,
    /** hits and misses since start (tests check the cache is really used, and really dropped) */
    stats: () => ({ ...counters, entries: entries.size }),
  };
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
