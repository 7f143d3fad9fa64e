/**
 * The domain form's values and the requests they become: the realm's own fields (PATCH
 * /realms/:id) and the settings (PATCH …/settings, or `settings` of the create). A secret left
 * empty is not sent, so the stored one is kept (realm-settings.ts).
 */
import { PROTECTION_DEFAULTS, type RealmProtection } from '@umbo/contracts/realm-groups';
import { CERT_EXPIRY_NOTICE_DEFAULT, type RealmSettingsPatch } from '@umbo/contracts/realm-settings';
import type { RealmDetail, RealmUpdate } from '@umbo/contracts/realms';
import { emptyBackend } from './backend-fields';

type BackendType = 'default' | 'ecogloble' | 'bigdata' | 'aliliving';

export interface FormValues {
  realmId: string;
  domain: string;
  description: string;
  backend_support_login_method: string[];
  backend_support_regist_method: string[];
  backend_support_find_back_method: string[];
  backend_support_login_regions: string[];
  needActive: boolean;
  activeEmailTpl: string;
  resetEmailTpl: string;
  captchaPolicy: 'always' | 'after_failures';
  passwordMinLength: number;
  revealMissingAccounts: boolean;
  accountCertValidity: number;
  realmMiddleCertValidity: number;
  /** issue 13: days before a certificate's end its owner is mailed */
  certExpiryNoticeDays: number[];
  backend_type: BackendType;
  /** type default: whether an IT interface backend is configured */
  useBackend: boolean;
  backend: Record<string, unknown>;
  backend_realm_id: string;
  backend_regist_url: string;
  oauthOn: boolean;
  oauth: Record<string, unknown>;
  emailOn: boolean;
  email: Record<string, unknown>;
  protection: RealmProtection;
}

const protectionDefaults = (): RealmProtection => ({
  ...PROTECTION_DEFAULTS,
  account: { ...PROTECTION_DEFAULTS.account },
  ip: { ...PROTECTION_DEFAULTS.ip },
});

const EMPTY_OAUTH = {
  isOIDC: true,
  clientID: '',
  loginEndpoint: '',
  tokenEndpoint: '',
  oidcWellknowEndpoint: '',
  accessTokenScope: 'openid',
  redirectURIOverwrite: false,
  redirectURI: '',
  loginURI: '',
  displayName: '',
  iconUrl: '',
  // issue 14: linking by verified e-mail is off unless the administrator turns it on
  linkVerifiedEmail: false,
};
const EMPTY_EMAIL = { host: '', port: 587, secure: false, user: '', from: '' };

/** A new domain: the server's defaults (realm-settings.ts). */
export const NEW_REALM: FormValues = {
  realmId: '',
  domain: '',
  description: '',
  backend_support_login_method: ['password', 'sms', 'email', 'otp'],
  backend_support_regist_method: ['email', 'sms'],
  backend_support_find_back_method: ['email', 'sms'],
  backend_support_login_regions: ['86'],
  needActive: true,
  activeEmailTpl: '',
  resetEmailTpl: '',
  captchaPolicy: 'always',
  passwordMinLength: 6,
  revealMissingAccounts: false,
  accountCertValidity: 3650,
  realmMiddleCertValidity: 7300,
  certExpiryNoticeDays: [...CERT_EXPIRY_NOTICE_DEFAULT],
  backend_type: 'default',
  useBackend: false,
  backend: emptyBackend('default'),
  backend_realm_id: '',
  backend_regist_url: '',
  oauthOn: false,
  oauth: EMPTY_OAUTH,
  emailOn: false,
  email: EMPTY_EMAIL,
  protection: protectionDefaults(),
};

/** Drops the write-only answers ('' and hasX) from a stored group. */
function withoutSecrets(group: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(group)) if (!/^has[A-Z]/.test(k) && !['appSercet', 'appCloudSecret', 'clientSecret', 'password'].includes(k)) out[k] = v;
  return out;
}

export function fromDetail(d: RealmDetail): FormValues {
  const st = d.settings;
  return {
    ...NEW_REALM,
    realmId: d.realmId,
    domain: d.domain,
    description: d.description,
    backend_support_login_method: st.backend_support_login_method,
    backend_support_regist_method: st.backend_support_regist_method,
    backend_support_find_back_method: st.backend_support_find_back_method,
    backend_support_login_regions: st.backend_support_login_regions,
    needActive: st.needActive,
    activeEmailTpl: st.activeEmailTpl,
    resetEmailTpl: st.resetEmailTpl,
    captchaPolicy: st.captchaPolicy,
    passwordMinLength: st.passwordMinLength,
    revealMissingAccounts: st.revealMissingAccounts,
    accountCertValidity: st.accountCertValidity,
    realmMiddleCertValidity: st.realmMiddleCertValidity,
    certExpiryNoticeDays: st.certExpiryNoticeDays,
    backend_type: st.backend_type,
    useBackend: Boolean(st.backend),
    backend: st.backend ? withoutSecrets(st.backend) : emptyBackend(st.backend_type),
    backend_realm_id: st.backend_realm_id,
    backend_regist_url: st.backend_regist_url,
    oauthOn: Boolean(st.oauth),
    oauth: st.oauth ? withoutSecrets(st.oauth) : EMPTY_OAUTH,
    emailOn: Boolean(st.email),
    email: st.email ? withoutSecrets(st.email) : EMPTY_EMAIL,
    protection: st.protection,
  };
}

/** A group as sent: empty secret fields left out (kept), empty optional user left out. */
function group(values: Record<string, unknown>, secrets: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (secrets.includes(k) && (v === undefined || v === '')) continue;
    if (v === undefined) continue;
    out[k] = v;
  }
  return out;
}

export function toRequests(v: FormValues, before: RealmDetail | undefined): { realm: RealmUpdate; settings: RealmSettingsPatch } {
  const realm: RealmUpdate = {};
  if (!before || v.domain !== before.domain) realm.domain = v.domain;
  if (!before || v.description !== before.description) realm.description = v.description;
  const external = v.backend_type !== 'default' || v.useBackend;
  const settings = {
    backend_support_login_method: v.backend_support_login_method,
    backend_support_regist_method: v.backend_support_regist_method,
    backend_support_find_back_method: v.backend_support_find_back_method,
    backend_support_login_regions: v.backend_support_login_regions,
    needActive: v.needActive,
    activeEmailTpl: v.activeEmailTpl,
    resetEmailTpl: v.resetEmailTpl,
    captchaPolicy: v.captchaPolicy,
    passwordMinLength: v.passwordMinLength,
    revealMissingAccounts: v.revealMissingAccounts,
    accountCertValidity: v.accountCertValidity,
    realmMiddleCertValidity: v.realmMiddleCertValidity,
    certExpiryNoticeDays: v.certExpiryNoticeDays,
    backend_type: v.backend_type,
    backend: external ? { type: v.backend_type, ...group(v.backend, ['appSercet', 'appCloudSecret']) } : null,
    backend_realm_id: external ? v.backend_realm_id : (before?.settings.backend_realm_id ?? ''),
    backend_regist_url: external ? v.backend_regist_url : (before?.settings.backend_regist_url ?? ''),
    oauth: v.oauthOn ? group(v.oauth, ['clientSecret']) : null,
    email: v.emailOn ? group({ ...v.email, user: v.email.user || undefined }, ['password']) : null,
    protection: v.protection,
  } as RealmSettingsPatch;
  return { realm, settings };
}
