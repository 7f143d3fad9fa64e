/**
 * The signed-in user's own account (SPEC §3 "Account centre", §5; issue 3): what it shows,
 * user name and avatar, password change, sessions and preferences. Every call acts on the
 * session's own account — an id never comes from the request.
 */
import { LIMITS, accountSettings, type AccountInfo, type AccountSettings, type Locale } from '@umbo/contracts';
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import { assertAcceptablePassword } from '../accounts/password-policy.js';
import { hashPassword } from '../auth/passwords.js';
import type { Session, SessionRepo } from '../auth/sessions.repo.js';
import type { Reauth } from '../auth/throttle/reauth.js';
import type { SecurityNotices } from '../notify/security-notices.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/crypto.js';
import { isUniqueViolation, type Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { defaultRealmSettings, type RealmSettings } from '../realms/realm-settings.js';
import type { RealmRepo } from '../realms/realms.repo.js';
import { parseAvatar } from './avatar.js';
import type { SignInEvents } from '../audit/sign-in-events.js';
import type { MeRepo } from './me.repo.js';
import { readAccountSettings } from './me.settings.js';

export const avatarPath = (realmId: string, id: string) => `/api/users/avatars/${encodeURIComponent(realmId)}/${id}`;

export interface MeServiceDeps {
  accounts: AccountRepo;
  me: MeRepo;
  realms: RealmRepo;
  sessions: SessionRepo;
  reauth: Reauth;
  clock: Clock;
  notices: SecurityNotices;
  otpEnabled(account: Account): Promise<boolean>;
  transact: Transact;
  /** the audit trail's account events (issue 11): password.changed */
  signIns?: SignInEvents;
}

export function createMeService(deps: MeServiceDeps) {
  const { accounts, me, realms, sessions, reauth, clock, transact } = deps;

  async function realmOf(realmId: string): Promise<{ name: string; settings: RealmSettings }> {
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    let stored: Partial<RealmSettings> = {};
    try {
      stored = JSON.parse(realm.settings) as Partial<RealmSettings>;
    } catch {
      // a damaged record falls back to defaults
    }
    return { name: realm.name, settings: { ...defaultRealmSettings(), ...stored } };
  }

  async function info(account: Account): Promise<AccountInfo> {
    const realm = await realmOf(account.realm_id);
    return {
      accountMark: account.kind === 'service' ? account.username_norm : account.username,
      id: account.id,
      username: account.username,
      kind: account.kind,
      domain: realm.name,
      domainId: account.realm_id,
      avatar: account.avatar,
      email: account.email,
      phone: account.phone,
      lastLoginArea: account.last_login_area,
      lastLoginTime: account.last_login_at,
      registTime: account.created_at,
      registArea: account.regist_area,
      updateTime: account.updated_at,
      otpEnabled: await deps.otpEnabled(account),
      forcePassword: Boolean(account.force_password),
    };
  }

  async function reload(account: Account): Promise<Account> {
    const fresh = await accounts.findAccountById(account.realm_id, account.id);
    assertThat(fresh, 'UNAUTHORIZED');
    return fresh;
  }

  /** SPEC §5: a new user name differs from the current one; 1205 if another account has it. */
  async function update(account: Account, patch: { username?: string | undefined; avatar?: string | undefined }): Promise<AccountInfo> {
    const now = clock.now();
    const { username, avatar } = patch;
    if (username !== undefined) {
      // A service account's name is its owner's grant (owner/subname), not its own to change.
      assertThat(account.kind === 'person', 'FORBIDDEN');
      assertThat(username !== account.username, 'INVALID_PARAMETER', { field: 'username', reason: 'validation.username_same' });
    }
    try {
      // One transaction: a taken name leaves the avatar unchanged too (no partial write).
      await transact(async (trx) => {
        if (username !== undefined) await accounts.renameAccount(account.realm_id, account.id, account.username_norm, username, now, trx);
        if (avatar !== undefined) {
          await me.deleteAvatar(account.realm_id, account.id, trx);
          await accounts.setAvatarUrl(account.realm_id, account.id, avatar, now, trx);
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('USER_EXISTS', { field: 'username' });
      throw err;
    }
    return info(await reload(account));
  }

  async function uploadAvatar(account: Account, dataUrl: string): Promise<{ avatar: string }> {
    const image = parseAvatar(dataUrl);
    const id = newId();
    const avatar = avatarPath(account.realm_id, id);
    const now = clock.now();
    await transact(async (trx) => {
      await me.replaceAvatar(account.realm_id, account.id, { id, mime: image.mime, data: image.bytes.toString('base64') }, now, trx);
      await accounts.setAvatarUrl(account.realm_id, account.id, avatar, now, trx);
    });
    return { avatar };
  }

  async function avatarFile(realmId: string, id: string): Promise<{ mime: string; bytes: Buffer }> {
    const found = await me.findAvatar(realmId, id);
    assertThat(found, 'NOT_FOUND');
    return { mime: found.mime, bytes: Buffer.from(found.data, 'base64') };
  }

  /**
   * Old password first (counted by the throttle, A-36); SPEC §5 + realm minimum + common list
   * . Every other session ends; this one stays. Clears force_password (SPEC §3).
   * The owner is told afterwards (ASVS 5.0 V6.3.7), in case it was not them.
   */
  async function changePassword(
    account: Account,
    current: Session,
    input: { oldPassword: string; newPassword: string; ip: string; locale: Locale },
  ): Promise<void> {
    await reauth.confirmPassword(account, input.oldPassword, input.ip);
    if (input.newPassword === input.oldPassword) throw fail('PASSWORD_REJECTED', { reason: 'same_as_old', min: LIMITS.passwordMin });
    const realm = await realmOf(account.realm_id);
    assertAcceptablePassword(input.newPassword, realm.settings.passwordMinLength);
    const hash = await hashPassword(input.newPassword);
    const now = clock.now();
    await transact(async (trx) => {
      await accounts.setPassword(account.realm_id, account.id, hash, now, trx);
      await sessions.revokeAccountSessions(account.realm_id, account.id, now, current.id, trx);
      await deps.signIns?.own('password.changed', account, { ip: input.ip, userAgent: current.user_agent ?? '' }, {}, trx);
    });
    deps.notices.send(account, 'password_changed', { ip: input.ip, locale: input.locale });
  }

  async function listSessions(account: Account, current: Session) {
    const rows = await sessions.listAccountSessions(account.realm_id, account.id, clock.now());
    const items = rows.map((s) => ({
      id: s.id,
      ip: s.ip,
      userAgent: s.user_agent,
      createdAt: s.created_at,
      lastSeenAt: s.last_seen_at,
      expiresAt: s.expires_at,
      current: s.id === current.id,
    }));
    return { items, total: items.length };
  }

  /** Only the caller's own live sessions can be ended here; anything else is 1004. */
  async function revokeSession(account: Account, id: string): Promise<void> {
    const own = await sessions.listAccountSessions(account.realm_id, account.id, clock.now());
    assertThat(
      own.some((s) => s.id === id),
      'NOT_FOUND',
    );
    await sessions.revokeSession(account.realm_id, id, clock.now());
  }

  /** "Sign out everywhere else" (issue 8): every session but this one ends. */
  async function revokeOtherSessions(account: Account, current: Session): Promise<number> {
    return sessions.revokeAccountSessions(account.realm_id, account.id, clock.now(), current.id);
  }

  async function getSettings(account: Account): Promise<AccountSettings> {
    return readAccountSettings(await me.findSettings(account.realm_id, account.id)).settings;
  }

  async function updateSettings(
    account: Account,
    patch: Partial<Omit<AccountSettings, 'notifications'>> & { notifications?: Partial<AccountSettings['notifications']> | undefined },
  ): Promise<AccountSettings> {
    const { settings: current, language: chosen } = readAccountSettings(await me.findSettings(account.realm_id, account.id));
    const next = accountSettings.parse({
      ...current,
      ...stripUndefined(patch),
      notifications: { ...current.notifications, ...stripUndefined(patch.notifications ?? {}) },
    });
    // The default language is not stored as if chosen: until the account picks one, security
    // notices follow the language of the request (notify/security-notices.ts), not zh-CN.
    const { language, ...rest } = next;
    const stored = patch.language !== undefined || chosen !== undefined ? next : rest;
    await me.saveSettings(account.realm_id, account.id, JSON.stringify(stored), clock.now());
    return next;
  }

  return { info, update, uploadAvatar, avatarFile, changePassword, listSessions, revokeSession, revokeOtherSessions, getSettings, updateSettings };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export type MeService = ReturnType<typeof createMeService>;
