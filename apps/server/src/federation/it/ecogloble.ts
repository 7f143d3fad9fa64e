/**
 * The endpoints of the `ecogloble` IT interface (SPEC §3; docs/it-interface.md): password
 * sign-in (loginpath), codes (getVerifyCode, loginByVerifyCode), registration (userRegistInfo)
 * and one user's lookup (getUsersInfo), with the country-code options applied exactly as the
 * document defines them. The `default` type is these plus default.ts.
 */
import { z } from 'zod';
import { DEFAULT_COUNTRY } from '../../accounts/phone.js';
import { callIt, ItUnavailable, type ItBackend, type ItCallDeps } from './client.js';

/** Answer codes of the contract (docs "Answer codes"). */
export const IT_CODES = { ok: 0, badCredentials: 10, userExists: 11, notFound: 12, badRequest: 20 } as const;

/** A backend user as answered; userId is usable as our account id (useOriginID). */
export const itUser = z.object({
  userId: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  username: z.string().min(1).max(120),
  email: z.string().max(254).nullish(),
  phone: z.string().max(32).nullish(),
  countryCode: z.string().max(4).nullish(),
  disabled: z.boolean().optional(),
});
export type ItUser = z.infer<typeof itUser>;

/** What registration sends to the backend (userRegistInfo): the phone in E.164 with its country calling code. */
export interface ItRegistration {
  username: string;
  password: string;
  email?: string | undefined;
  phone?: { e164: string; country: string } | undefined;
  code?: string;
  serialNo?: string;
}

/** Where and how to call: the realm's backend, its unsealed secret, the region's host and the realm id at the backend. */
export interface ItTarget {
  backend: ItBackend;
  secret: string;
  host: string;
  backendRealmId: string;
}

/** Garbage where a user should be is a broken backend, not wrong credentials. */
export function readUser(data: unknown, key = 'user'): ItUser {
  const parsed = itUser.safeParse((data as Record<string, unknown> | undefined)?.[key]);
  if (!parsed.success) throw new ItUnavailable('bad_answer');
  return parsed.data;
}

/** Digits of a calling code, default the mainland's (SPEC §9 default region). */
const ccOf = (country: string | undefined) => country?.replace(/^\+/, '') || DEFAULT_COUNTRY;

/**
 * A phone number for the code and registration endpoints (doAuthNeedCountryCode):
 * on → national number plus countryCode; off → E.164 in `phone` alone.
 */
export function phoneFields(backend: ItBackend, e164: string, country: string): Record<string, string> {
  if (!backend.doAuthNeedCountryCode) return { phone: e164 };
  return { phone: e164.slice(country.length + 1), countryCode: country };
}

/**
 * The password request's fields: loginpathCountryCodeRewrite turns an all-digit account (a
 * national phone number) into E.164; loginpathNeedCountryCode adds countryCode.
 */
export function loginFields(backend: ItBackend, account: string, password: string, country: string | undefined): Record<string, string> {
  const cc = ccOf(country);
  const rewritten = backend.loginpathCountryCodeRewrite && /^\d{4,15}$/.test(account) ? `+${cc}${account}` : account;
  return { account: rewritten, password, ...(backend.loginpathNeedCountryCode ? { countryCode: cc } : {}) };
}

export function createEcoglobleEndpoints(deps: ItCallDeps) {
  const call = (t: ItTarget, endpoint: string, fields: Record<string, string | string[]>, form = false) =>
    callIt(deps, { backend: t.backend, secret: t.secret, host: t.host, endpoint, fields: { realm: t.backendRealmId, ...fields }, form });

  return {
    async login(t: ItTarget, account: string, password: string, country: string | undefined): Promise<ItUser> {
      return readUser(await call(t, t.backend.loginpath, loginFields(t.backend, account, password, country), t.backend.loginpathUseFormPost));
    },
    async getVerifyCode(t: ItTarget, e164: string, country: string, purpose: 'login' | 'register'): Promise<string> {
      const data = (await call(t, t.backend.getVerifyCode, { ...phoneFields(t.backend, e164, country), purpose })) as { serialNo?: unknown } | undefined;
      if (typeof data?.serialNo !== 'string' || data.serialNo.length === 0 || data.serialNo.length > 128) throw new ItUnavailable('bad_answer');
      return data.serialNo;
    },
    async loginByVerifyCode(t: ItTarget, e164: string, country: string, code: string, serialNo: string): Promise<ItUser> {
      return readUser(await call(t, t.backend.loginByVerifyCode, { ...phoneFields(t.backend, e164, country), code, serialNo }));
    },
    async register(t: ItTarget, r: ItRegistration): Promise<ItUser> {
      const fields: Record<string, string> = { username: r.username, password: r.password };
      if (r.email) fields.email = r.email;
      if (r.phone) Object.assign(fields, phoneFields(t.backend, r.phone.e164, r.phone.country));
      if (r.code) fields.code = r.code;
      if (r.serialNo) fields.serialNo = r.serialNo;
      return readUser(await call(t, t.backend.userRegistInfo, fields));
    },
    async getUser(t: ItTarget, userId: string): Promise<ItUser> {
      return readUser(await call(t, t.backend.getUsersInfo, { userId }));
    },
    call,
  };
}

export type EcoglobleEndpoints = ReturnType<typeof createEcoglobleEndpoints>;
