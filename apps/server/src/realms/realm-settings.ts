/**
 * A realm's settings record (SPEC §3 field names). Issue 3 reads the sign-in methods,
 * regions, activation and templates from here; GET/PATCH
 * /api/users/realms/:realmId/settings (realm-settings.routes.ts) change them.
 */
import type { RealmMailConfig, SmsProviderConfig } from '../notify/types.js';

export interface RealmSettings {
  backend_type: 'default' | 'ecogloble' | 'bigdata' | 'aliliving';
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
}

export function defaultRealmSettings(): RealmSettings {
  return {
    backend_type: 'default',
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
