/**
 * The account's stored preferences, read leniently: a damaged record falls back to the
 * defaults, and keys no longer in the schema (such as the removed `productEmail`) are
 * dropped rather than refused, so records written by older versions stay readable.
 */
import { accountSettings, type AccountSettings, type Locale } from '@umbo/contracts';
import type { Account } from '../accounts/accounts.repo.js';
import type { MeRepo } from './me.repo.js';

/** SPEC §1, §9: zh-CN, dark theme, light blue (antd's daybreak blue). Security mail on, SMS off. */
export const DEFAULT_ACCOUNT_SETTINGS: AccountSettings = {
  language: 'zh-CN',
  theme: 'dark',
  color: '#1890ff',
  notifications: { securityEmail: true, securitySms: false },
};

export interface StoredSettings {
  settings: AccountSettings;
  /** the language the account saved, undefined when it never saved one (use the request's) */
  language: Locale | undefined;
}

export function readAccountSettings(raw: string | undefined): StoredSettings {
  if (!raw) return { settings: DEFAULT_ACCOUNT_SETTINGS, language: undefined };
  let stored: Partial<AccountSettings> = {};
  try {
    stored = JSON.parse(raw) as Partial<AccountSettings>;
  } catch {
    // damaged preferences fall back to the defaults
  }
  const merged = { ...DEFAULT_ACCOUNT_SETTINGS, ...stored, notifications: { ...DEFAULT_ACCOUNT_SETTINGS.notifications, ...stored.notifications } };
  // z.object strips unknown keys: an old `productEmail` disappears here and at the next save.
  const parsed = accountSettings.safeParse(merged);
  if (!parsed.success) return { settings: DEFAULT_ACCOUNT_SETTINGS, language: undefined };
  // A stored language passed the schema above; an absent one was never chosen.
  return { settings: parsed.data, language: stored.language === undefined ? undefined : parsed.data.language };
}

/** The stored preferences of an account, as security notices read them (notify/security-notices.ts). */
export function createPreferencesReader(repo: Pick<MeRepo, 'findSettings'>) {
  return async (account: Pick<Account, 'id' | 'realm_id'>): Promise<StoredSettings> =>
    readAccountSettings(await repo.findSettings(account.realm_id, account.id));
}
