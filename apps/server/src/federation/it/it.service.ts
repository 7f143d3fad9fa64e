/**
 * Sign-in, codes, registration and lookups of a realm whose accounts live behind an
 * IT-interface backend (issue 14; SPEC §3 ecogloble and default). A realm of type `default`
 * without a backend group is the built-in account store: `handles` says no and nothing here
 * runs. Every call passes the realm's circuit breaker; whatever the backend fails at becomes
 * 1303 (SPEC §8 "Connect it error"), never a 500 and never a shadow account.
 */
import type { Account, AccountRepo } from '../../accounts/accounts.repo.js';
import type { CodeStore } from '../../codes/store.js';
import type { OutboundDeps } from '../../notify/outbound.js';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import type { Transact } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import type { FlowSettings } from '../../realms/realm-policy.js';
import { mapBounded } from './bounded.js';
import { createItCodeLimits } from './code-limits.js';
import { BreakerOpen, createBreakers, type Breakers, type BreakerView } from './breaker.js';
import { ItAnswer, ItUnavailable, regionOf, type ItBackend } from './client.js';
import { itBackendOf } from '../../realms/realm-settings.backend.js';
import { getUsersByIds } from './default.js';
import { createEcoglobleEndpoints, IT_CODES, type ItRegistration, type ItTarget, type ItUser } from './ecogloble.js';
import { createShadowAccounts } from './shadow.js';
import type { ShadowLinkRepo } from './shadow.repo.js';

/** getUsersInfo calls in flight at once for one lookup (ecogloble asks one id per call). */
export const LOOKUP_CONCURRENCY = 8;

export interface ItFederationDeps {
  accounts: AccountRepo;
  links: ShadowLinkRepo;
  transact: Transact;
  clock: Clock;
  secrets: Pick<Secrets, 'decrypt' | 'hash'>;
  /** the code store's counters: the resend wait, daily cap and wrong tries of backend codes (code-limits.ts) */
  counters: Pick<CodeStore, 'hitCounter' | 'releaseCounters'>;
  /** NOTIFY_ALLOW_PRIVATE_NETWORK */
  allowPrivate: boolean;
  breakers?: Breakers;
  outbound?: OutboundDeps;
}

/** The realm's IT backend, or undefined for any other realm (the built-in store included). */
export function createItFederation(d: ItFederationDeps) {
  const endpoints = createEcoglobleEndpoints({ clock: d.clock, allowPrivate: d.allowPrivate, outbound: d.outbound });
  const breakers = d.breakers ?? createBreakers(d.clock);
  const shadows = createShadowAccounts(d);
  const limits = createItCodeLimits(d);
  // The realm's sealed appSercet, opened once per sealed value (each value has its own IV, so a
  // changed secret is a new key here): AES-GCM per sign-in was a measurable share of it.
  const opened = new Map<string, string>();
  const secretOf = (sealed: string): string => {
    let plain = opened.get(sealed);
    if (plain === undefined) {
      plain = d.secrets.decrypt(sealed);
      if (opened.size >= 100) opened.clear();
      opened.set(sealed, plain);
    }
    return plain;
  };

  function target(settings: FlowSettings, region: string | undefined): { t: ItTarget; region: string } {
    const backend = itBackendOf(settings);
    if (!backend) throw new Error('not an IT-interface realm');
    // the settings service refuses a group without its secret; a missing one is a broken record
    if (!backend.appSercet) throw fail('CONNECT_IT_ERROR', { reason: 'not_configured' });
    const r = regionOf(backend, region);
    return { t: { backend, secret: secretOf(backend.appSercet), host: r.host, backendRealmId: settings.backend_realm_id }, region: r.region };
  }

  /** Runs one backend call under the realm's breaker; failures become 1303, other answers stay ItAnswer. */
  async function guarded<T>(realmId: string, t: ItTarget, call: () => Promise<T>): Promise<T> {
    try {
      return await breakers.run(realmId, t.backend.type, call, (err) => (err instanceof ItUnavailable ? err.reason : null));
    } catch (err) {
      if (err instanceof BreakerOpen) throw fail('CONNECT_IT_ERROR', { reason: 'breaker_open' });
      if (err instanceof ItUnavailable) throw fail('CONNECT_IT_ERROR', { reason: err.reason });
      throw err;
    }
  }

  /** An answer code the step does not expect is a backend we cannot work with. */
  const unexpected = (err: unknown) => (err instanceof ItAnswer ? fail('CONNECT_IT_ERROR', { reason: 'bad_answer' }) : err);

  /** The shadow account, or undefined when the backend says the credentials are wrong. */
  async function signIn(
    realmId: string,
    settings: FlowSettings,
    region: string | undefined,
    ask: (t: ItTarget) => Promise<ItUser>,
  ): Promise<Account | undefined> {
    const { t, region: served } = target(settings, region);
    let user: ItUser;
    try {
      user = await guarded(realmId, t, () => ask(t));
    } catch (err) {
      if (err instanceof ItAnswer && (err.itCode === IT_CODES.badCredentials || err.itCode === IT_CODES.notFound)) return undefined;
      throw unexpected(err);
    }
    return shadows.shadowFor(realmId, user, served, t.backend.useOriginID);
  }

  return {
    /**
     * Does this realm delegate its accounts (or the account of this user name) to an
     * IT-interface backend? A service account (`owner/subname`) is umbo's own even here: its
     * password is kept and checked by umbo, and backend user names hold no '/'.
     */
    handles: (settings: FlowSettings, username?: string) => itBackendOf(settings) !== undefined && !username?.includes('/'),

    passwordSignIn(realmId: string, settings: FlowSettings, input: { username: string; password: string; country?: string | undefined }) {
      return signIn(realmId, settings, input.country, (t) => endpoints.login(t, input.username, input.password, input.country));
    },

    /** The backend sends the code itself; answers its serial number (the code's handle). Our resend wait and daily cap apply. */
    async sendCode(
      realmId: string,
      settings: FlowSettings,
      phone: { e164: string; country: string },
      purpose: 'login' | 'register',
      ip: string,
    ): Promise<string> {
      const { t } = target(settings, phone.country);
      return limits.sending(realmId, phone.e164, purpose, ip, async () => {
        try {
          return await guarded(realmId, t, () => endpoints.getVerifyCode(t, phone.e164, phone.country, purpose));
        } catch (err) {
          throw unexpected(err);
        }
      });
    },

    /** a code's wrong tries are counted here too, so a backend without a limit still gets at most 5 guesses. */
    codeSignIn(realmId: string, settings: FlowSettings, phone: { e164: string; country: string }, code: string, serialNo: string) {
      return limits.guessing(realmId, phone.e164, serialNo, () =>
        signIn(realmId, settings, phone.country, (t) => endpoints.loginByVerifyCode(t, phone.e164, phone.country, code, serialNo)),
      );
    },

    /**
     * Registration goes to the backend; 1205 when it knows the user already. A-33: the SMS code
     * it carries (sent by sendCode) takes at most 5 wrong tries, counted as at code sign-in.
     */
    async register(realmId: string, settings: FlowSettings, r: ItRegistration): Promise<Account> {
      const { t, region } = target(settings, r.phone?.country);
      /** The backend's user; undefined when it refused the code. */
      const ask = async (): Promise<ItUser | undefined> => {
        try {
          return await guarded(realmId, t, () => endpoints.register(t, r));
        } catch (err) {
          if (err instanceof ItAnswer && err.itCode === IT_CODES.userExists) throw fail('USER_EXISTS');
          if (err instanceof ItAnswer && err.itCode === IT_CODES.badCredentials) return undefined;
          throw unexpected(err);
        }
      };
      const user = r.phone && r.serialNo !== undefined ? await limits.guessing(realmId, r.phone.e164, r.serialNo, ask) : await ask();
      if (!user) throw fail('CODE_INVALID');
      return shadows.shadowFor(realmId, user, region, t.backend.useOriginID);
    },

    /** The backend's current record of shadow accounts (getUsersInfo; `default`: getUserInfoListByUcUids), asked of each user's region. */
    async lookup(realmId: string, settings: FlowSettings, accountIds: readonly string[]): Promise<ItUser[]> {
      const links = await d.links.findLinksOfAccounts(realmId, accountIds);
      const byRegion = new Map<string, string[]>();
      for (const l of links) byRegion.set(l.region, [...(byRegion.get(l.region) ?? []), l.backend_user_id]);
      const found: ItUser[] = [];
      for (const [region, ids] of byRegion) {
        const { t } = target(settings, region);
        try {
          if (t.backend.type === 'default') found.push(...(await guarded(realmId, t, () => getUsersByIds(endpoints, t, ids))));
          else {
            const answers = await mapBounded(ids, LOOKUP_CONCURRENCY, (id) =>
              guarded(realmId, t, () => endpoints.getUser(t, id)).catch((err: unknown) => {
                if (err instanceof ItAnswer && err.itCode === IT_CODES.notFound) return undefined;
                throw err;
              }),
            );
            for (const one of answers) if (one) found.push(one);
          }
        } catch (err) {
          throw unexpected(err);
        }
      }
      return found;
    },

    /** The monitor page's view of every realm backend this process has called. */
    backends: (): BreakerView[] => breakers.snapshot(),
  };
}

export type ItFederation = ReturnType<typeof createItFederation>;
