/**
 * A realm's settings record (SPEC §3 field names). Issue 3 reads the sign-in methods,
 * regions, activation and templates from here; GET/PATCH
 * /api/users/realms/:realmId/settings (realm-settings.routes.ts) change them.
 */
import { CERT_EXPIRY_NOTICE_DEFAULT, PROTECTION_DEFAULTS, type RealmProtection } from '@umbo/contracts';
import type { RealmMailConfig, SmsProviderConfig } from '../notify/types.js';
import type { StoredBackend, StoredOAuth } from './realm-settings.backend.js';

export interface RealmSettings {
  backend_type: 'default' | 'ecogloble' | 'bigdata' | 'aliliving';
  /** SPEC §3: the realm's id at its backend, and where the backend registers accounts */
  backend_realm_id: string;
  backend_regist_url: string;
  backend_support_login_method: string[];
  backend_support_regist_method: string[];
  backend_support_find_back_method: string[];
  backend_support_login_regions: string[];
  needActive: boolean;
  activeEmailTpl: string;
  resetEmailTpl: string;
  logo_img_url: string;
  icon_img_url: string;
  default_client_id: string;
  accountCertValidity: number;
  realmMiddleCertValidity: number;
  /** issue 13: days before a certificate ends that its owner is mailed (pki/expiry-notices.ts) */
  certExpiryNoticeDays: number[];
  /** 'always' (SPEC §5) or 'after_failures' */
  captchaPolicy: 'always' | 'after_failures';
  /** DESIGN.md §5 compatibility switch, off by default */
  revealMissingAccounts: boolean;
  passwordMinLength: number;
}

/** The record as stored: the settings plus the realm's own mail and SMS groups, secrets sealed. */
export interface StoredRealmSettings extends RealmSettings {
  email?: RealmMailConfig;
  sms?: SmsProviderConfig;
  /** issue 11: the backend group of backend_type (secrets sealed) */
  backend?: StoredBackend;
  /** issue 11: SPEC §3 OAuth config group (clientSecret sealed) */
  oauth?: StoredOAuth;
  /** issue 11: the realm's sign-in protection; absent = today's defaults */
  protection?: RealmProtection;
}

/** The protection in force: the realm's own group, else today's defaults (contracts PROTECTION_DEFAULTS). */
export function protectionOf(s: Pick<StoredRealmSettings, 'protection'>): RealmProtection {
  const d = PROTECTION_DEFAULTS;
  return (
    s.protection ?? {
      account: { ...d.account },
      ip: { ...d.ip },
      codeMaxAttempts: d.codeMaxAttempts,
      captchaAfterFailures: d.captchaAfterFailures,
      captchaAfterFormRequests: d.captchaAfterFormRequests,
    }
  );
}

export function defaultRealmSettings(): RealmSettings {
  return {
    backend_type: 'default',
    backend_realm_id: '',
    backend_regist_url: '',
    backend_support_login_method: ['password', 'sms', 'email', 'otp'],
    backend_support_regist_method: ['email', 'sms'],
    backend_support_find_back_method: ['email', 'sms'],
    backend_support_login_regions: ['86'],
    needActive: true,
    activeEmailTpl: '',
    resetEmailTpl: '',
    logo_img_url: '',
    icon_img_url: '',
    default_client_id: '',
    accountCertValidity: 3650,
    realmMiddleCertValidity: 7300,
    certExpiryNoticeDays: [...CERT_EXPIRY_NOTICE_DEFAULT],
    captchaPolicy: 'always',
    revealMissingAccounts: false,
    passwordMinLength: 6,
  };
}

/**
 * The stored record as written, for reading and for a PATCH to merge into. A damaged record
 * reads as empty (so the defaults apply) rather than failing every sign-in; the next PATCH
 * repairs it.
 */
export function parseStoredSettings(json: string): Partial<StoredRealmSettings> {
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Partial<StoredRealmSettings>) : {};
  } catch {
    return {};
  }
}

/** The settings in force: the stored fields over the defaults. */
export function readRealmSettings(json: string): StoredRealmSettings {
  return { ...defaultRealmSettings(), ...parseStoredSettings(json) };
}
