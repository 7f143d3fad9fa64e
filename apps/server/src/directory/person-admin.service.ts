/**
 * Administrators acting on one person account of a realm (SPEC §3 "Person account", §4;
 * issue 11): create, read, change email/phone, enable, disable, delete, set a temporary
 * password, end sessions, reset the one-time password.
 *
 * The guard has already decided `person.<action>` in the realm of the path. Here:
 * - the account must be a person of THAT realm (another realm's id is 1207, nothing changes);
 * - nobody acts on an account holding more than they do (A-40: a realm-admin cannot take
 *   over the platform admin by setting its password), and nobody disables, deletes or resets
 *   their own account here (1042), which also keeps the last master admin in place;
 * - each change and its audit event are one transaction; disabling and deleting end the
 *   account's sessions in it too.
 */
import type { CreatePersonBody, PersonDetail, PersonOtpState, UpdatePersonBody } from '@umbo/contracts';
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import { assertAcceptablePassword } from '../accounts/password-policy.js';
import { countryOf, normaliseMobile } from '../accounts/phone.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import { hashPassword } from '../auth/passwords.js';
import type { SessionRepo } from '../auth/sessions.repo.js';
import type { OtpRepo } from '../otp/otp.repo.js';
import type { PermService, Principal } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import { isUniqueViolation, type Db, type Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { toPersonDetail } from './person-view.js';

/** Who is calling, as the routes know it: for the permission decisions and the audit trail. */
export interface AdminCall {
  principal: Principal;
  actor: AuditActor | null;
  request: { ip: string; userAgent: string };
}

export interface PersonAdminDeps {
  accounts: AccountRepo;
  audit: Pick<AuditService, 'record'>;
  perm: Pick<PermService, 'loadPrincipal' | 'allows'>;
  sessions: Pick<SessionRepo, 'listAccountSessions' | 'revokeSession' | 'revokeAccountSessions'>;
  otp: Pick<OtpRepo, 'findOtp' | 'disableOtp' | 'replaceRecoveryCodes' | 'countUnusedRecoveryCodes'>;
  /** the realm's password minimum; 1004 when the realm does not exist */
  realmPasswordMin(realmId: string): Promise<number>;
  /** issue 14: the account's Ali Living link for its detail (undefined: not an `aliliving` realm) */
  aliLivingLinkOf?(realmId: string, accountId: string): Promise<PersonDetail['aliLiving']>;
  clock: Clock;
  transact: Transact;
}

/** A typed number in E.164: '+…' as written, otherwise national in `country` (default +86). */
export function phoneE164(input: string, country?: string): string | undefined {
  const typed = input.replace(/^'/, '').trim();
  if (typed.startsWith('+')) return normaliseMobile(typed, countryOf(typed.replace(/[\s-]/g, '')) || '86');
  return normaliseMobile(typed, country ?? '86');
}

export function createPersonAdminService(deps: PersonAdminDeps) {
  const { accounts, audit, perm, sessions, otp, clock, transact } = deps;
  const target = (a: Pick<Account, 'id' | 'username'>) => ({ type: 'account', id: a.id, name: a.username });
  const event = (
    realmId: string,
    call: AdminCall,
    action: string,
    a: Pick<Account, 'id' | 'username'>,
    extra: { changes?: string[]; detail?: Record<string, number | string | boolean> } = {},
  ) => ({
    realmId,
    actor: call.actor,
    action,
    target: target(a),
    result: 'ok' as const,
    request: call.request,
    ...extra,
  });

  /** The realm's person account `id`; 1207 for none, another realm's, or a service account. */
  async function personOf(realmId: string, id: string, trx?: Db): Promise<Account> {
    const found = await accounts.findAccountById(realmId, id, trx);
    assertThat(found && found.kind === 'person', 'USER_NOT_FOUND');
    return found;
  }

  /**
   * every grant the target holds, in the realm it holds it, must be the caller's too:
   * otherwise acting on it (its password, sessions, state) would reach beyond the caller's own rights.
   */
  async function assertNotWider(call: AdminCall, a: Pick<Account, 'id' | 'realm_id'>, action: string): Promise<void> {
    const held = await perm.loadPrincipal(a);
    for (const role of held.roles) {
      for (const g of role.permissions) {
        for (const act of g.actions) {
          if (!perm.allows(call.principal, g.permissionId, act, role.scopeRealmId)) {
            throw fail('FORBIDDEN', { service: 'users', resource: 'person', perm: action });
          }
        }
      }
    }
  }

  function assertNotSelf(call: AdminCall, id: string, action: string): void {
    assertThat(call.principal.accountId !== id, 'SELF_ACTION', { action });
  }

  /** A taken user name, email or phone is 1205 naming the field. */
  async function assertFree(realmId: string, fields: { username?: string; email?: string | null; phone?: string | null }, selfId?: string) {
    const checks: [string, Promise<Account | undefined>][] = [];
    if (fields.username) checks.push(['username', accounts.findAccountByUsername(realmId, fields.username)]);
    if (fields.email) checks.push(['email', accounts.findAccountByEmail(realmId, fields.email)]);
    if (fields.phone) checks.push(['phone', accounts.findAccountByPhone(realmId, fields.phone)]);
    for (const [field, found] of checks) {
      const other = await found;
      if (other && other.id !== selfId) throw fail('USER_EXISTS', { field });
    }
  }

  function phoneOf(phone: string | null | undefined, country: string | undefined): string | null | undefined {
    if (phone === undefined || phone === null) return phone;
    const e164 = phoneE164(phone, country);
    assertThat(e164, 'INVALID_PARAMETER', { field: 'phone', reason: 'validation.mobile' });
    return e164;
  }

  async function otpEnabled(a: Account): Promise<boolean> {
    return Boolean((await otp.findOtp({ realmId: a.realm_id, accountId: a.id }))?.enabled);
  }

  async function get(realmId: string, id: string): Promise<PersonDetail> {
    const a = await personOf(realmId, id);
    const aliLiving = await deps.aliLivingLinkOf?.(realmId, a.id);
    return { ...toPersonDetail(a, await otpEnabled(a)), ...(aliLiving !== undefined ? { aliLiving } : {}) };
  }

  async function create(realmId: string, body: CreatePersonBody, call: AdminCall): Promise<PersonDetail> {
    const min = await deps.realmPasswordMin(realmId);
    const phone = phoneOf(body.phone, body.country) ?? null;
    if (body.password !== undefined) assertAcceptablePassword(body.password, min);
    await assertFree(realmId, { username: body.username, email: body.email ?? null, phone });
    const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
    const given = (['username', 'email', 'phone', 'password', 'disabled', 'activated'] as const).filter((k) => body[k] !== undefined);
    try {
      const row = await transact(async (trx) => {
        const inserted = await accounts.insertPerson(
          {
            realmId,
            username: body.username,
            passwordHash,
            email: body.email ?? null,
            phone,
            disabled: body.disabled,
            activated: body.activated,
            // An administrator's password is a temporary one unless told otherwise.
            forcePassword: passwordHash !== null && body.forcePassword !== false,
            now: clock.now(),
          },
          trx,
        );
        await audit.record(event(realmId, call, 'account.create', inserted, { changes: [...given] }), trx);
        return inserted;
      });
      return toPersonDetail(row, false);
    } catch (err) {
      // Another request took the name or address between the check and the insert.
      if (isUniqueViolation(err)) throw fail('USER_EXISTS');
      throw err;
    }
  }

  async function update(realmId: string, id: string, body: UpdatePersonBody, call: AdminCall): Promise<PersonDetail> {
    const a = await personOf(realmId, id);
    await assertNotWider(call, a, 'edit');
    const phone = phoneOf(body.phone, body.country);
    const patch: { email?: string | null; phone?: string | null } = {};
    if (body.email !== undefined && body.email !== a.email) patch.email = body.email;
    if (phone !== undefined && phone !== a.phone) patch.phone = phone;
    const changes = Object.keys(patch);
    if (changes.length === 0) return toPersonDetail(a, await otpEnabled(a));
    await assertFree(realmId, patch, a.id);
    try {
      await transact(async (trx) => {
        assertThat(await accounts.setPersonAddresses(realmId, a.id, patch, clock.now(), trx), 'USER_NOT_FOUND');
        await audit.record(event(realmId, call, 'account.update', a, { changes }), trx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('USER_EXISTS', { field: changes.length === 1 ? changes[0] : 'email' });
      throw err;
    }
    return get(realmId, id);
  }

  async function setDisabled(realmId: string, id: string, disabled: boolean, call: AdminCall): Promise<PersonDetail> {
    const action = disabled ? 'disable' : 'enable';
    const a = await personOf(realmId, id);
    assertNotSelf(call, a.id, action);
    await assertNotWider(call, a, action);
    await transact(async (trx) => {
      const now = clock.now();
      // deleted meanwhile: 1207, and no event for a change that did not happen
      assertThat((await accounts.setPersonsDisabled(realmId, [a.id], disabled, now, trx)).length === 1, 'USER_NOT_FOUND');
      // A disabled account keeps no session: its bearer tokens stop at once.
      if (disabled) await sessions.revokeAccountSessions(realmId, a.id, now, undefined, trx);
      await audit.record(event(realmId, call, `account.${action}`, a, { changes: ['disabled'] }), trx);
    });
    return get(realmId, id);
  }

  async function remove(realmId: string, id: string, call: AdminCall): Promise<void> {
    const a = await personOf(realmId, id);
    assertNotSelf(call, a.id, 'delete');
    await assertNotWider(call, a, 'delete');
    await transact(async (trx) => {
      // Sessions, role bindings, OTP and the account's service accounts go with it (foreign key cascade).
      assertThat((await accounts.deletePersons(realmId, [a.id], trx)).length === 1, 'USER_NOT_FOUND');
      await audit.record(event(realmId, call, 'account.delete', a), trx);
    });
  }

  /** SPEC §3 force_password: the account must choose its own password at its next sign-in; every session ends. */
  async function setTemporaryPassword(realmId: string, id: string, password: string, call: AdminCall): Promise<void> {
    const a = await personOf(realmId, id);
    assertNotSelf(call, a.id, 'update');
    await assertNotWider(call, a, 'update');
    assertAcceptablePassword(password, await deps.realmPasswordMin(realmId));
    const hash = await hashPassword(password);
    await transact(async (trx) => {
      const now = clock.now();
      assertThat(await accounts.setTemporaryPassword(realmId, a.id, hash, now, trx), 'USER_NOT_FOUND');
      const revoked = await sessions.revokeAccountSessions(realmId, a.id, now, undefined, trx);
      await audit.record(
        event(realmId, call, 'account.password_reset_by_admin', a, { changes: ['password', 'forcePassword'], detail: { sessionsRevoked: revoked } }),
        trx,
      );
    });
  }

  async function listSessions(realmId: string, id: string) {
    const a = await personOf(realmId, id);
    const rows = await sessions.listAccountSessions(realmId, a.id, clock.now());
    const items = rows.map((s) => ({
      id: s.id,
      ip: s.ip,
      userAgent: s.user_agent,
      createdAt: s.created_at,
      lastSeenAt: s.last_seen_at,
      expiresAt: s.expires_at,
    }));
    return { items, total: items.length };
  }

  /** One live session of the account (`sessionId`), or all of them: answers how many ended. */
  async function revokeSessions(realmId: string, id: string, sessionId: string | undefined, call: AdminCall): Promise<{ revoked: number }> {
    const a = await personOf(realmId, id);
    await assertNotWider(call, a, 'update');
    if (sessionId !== undefined) {
      const live = await sessions.listAccountSessions(realmId, a.id, clock.now());
      assertThat(
        live.some((s) => s.id === sessionId),
        'NOT_FOUND',
      );
    }
    return transact(async (trx) => {
      const now = clock.now();
      const revoked =
        sessionId === undefined
          ? await sessions.revokeAccountSessions(realmId, a.id, now, undefined, trx)
          : Number(await sessions.revokeSession(realmId, sessionId, now, trx));
      await audit.record(event(realmId, call, 'account.sessions_revoked', a, { detail: { count: revoked } }), trx);
      return { revoked };
    });
  }

  async function otpState(realmId: string, id: string): Promise<PersonOtpState> {
    const a = await personOf(realmId, id);
    const o = { realmId, accountId: a.id };
    const row = await otp.findOtp(o);
    const enabled = Boolean(row?.enabled);
    return { enabled, pending: Boolean(row?.pending_secret), recoveryCodesLeft: enabled ? await otp.countUnusedRecoveryCodes(o) : 0 };
  }

  /** The account lost its device: OTP off and recovery codes gone; it sets OTP up again itself. */
  async function resetOtp(realmId: string, id: string, call: AdminCall): Promise<PersonOtpState> {
    const a = await personOf(realmId, id);
    assertNotSelf(call, a.id, 'update');
    await assertNotWider(call, a, 'update');
    await transact(async (trx) => {
      const o = { realmId, accountId: a.id };
      const now = clock.now();
      await otp.disableOtp(o, now, trx);
      await otp.replaceRecoveryCodes(o, [], now, trx);
      await audit.record(event(realmId, call, 'account.otp_reset', a, { changes: ['otp'] }), trx);
    });
    return otpState(realmId, id);
  }

  return {
    get,
    create,
    update,
    setDisabled,
    remove,
    setTemporaryPassword,
    listSessions,
    revokeSessions,
    otpState,
    resetOtp,
    personOf,
    assertNotWider,
    assertNotSelf,
  };
}

export type PersonAdminService = ReturnType<typeof createPersonAdminService>;
