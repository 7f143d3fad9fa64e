/**
 * Service (sub) accounts (SPEC §3, §4, §5; DESIGN.md §4; issue 11): the rules behind both doors,
 * an administrator naming the owner (service.<action> in the realm, decided by the guard) and
 * a person acting on their own (userService.<action>). Every change writes its audit event in
 * its own transaction. Who may grant what is in service-grants.ts.
 */
import { LIMITS, type ServiceAccountPage, type ServiceAccountView, type ServiceCreateBody, type ServiceListQuery } from '@umbo/contracts';
import type { ServicePasswordBody, ServiceResourcesView, ServiceUpdateBody } from '@umbo/contracts';
import { normaliseUsername, type Account, type AccountRepo } from '../accounts/accounts.repo.js';
import { assertAcceptablePassword } from '../accounts/password-policy.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import { hashPassword } from '../auth/passwords.js';
import type { SessionRepo } from '../auth/sessions.repo.js';
import type { PermissionGrant } from '../perm/builtin-roles.js';
import type { PermService, Principal } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import { isUniqueViolation, type Db, type Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { createServiceGrants } from './service-grants.js';
import type { ServiceAccountRepo } from './service-accounts.repo.js';

export interface ServiceAccountDeps {
  accounts: AccountRepo;
  profiles: ServiceAccountRepo;
  sessions: Pick<SessionRepo, 'revokeAccountSessions'>;
  perm: Pick<PermService, 'loadPrincipal' | 'allows'>;
  audit: AuditService;
  /** the realm's minimum password length (realm settings) */
  passwordMinOf(realmId: string): Promise<number>;
  clock: Clock;
  transact: Transact;
}

/** Who asks, as the audit trail and the A-40 checks need them. */
export interface Caller {
  account: Account;
  principal: Principal;
  actor: AuditActor | null;
  request: { ip: string; userAgent: string };
}

/** The part after `owner/` of a service account's user name. */
export const subnameOf = (a: Pick<Account, 'username'>) => a.username.slice(a.username.indexOf('/') + 1);

/** An opaque page boundary: the row's username_norm, base64url; a malformed one reads as none. */
const encodeCursor = (norm: string) => Buffer.from(norm).toString('base64url');
function decodeCursor(c: string | undefined): string | undefined {
  if (!c) return undefined;
  const v = Buffer.from(c, 'base64url').toString();
  return v.includes('/') && v.length <= 2 * LIMITS.subNameMax + 8 ? v : undefined;
}

export function createServiceAccountService(deps: ServiceAccountDeps) {
  const { accounts, profiles, sessions, audit, clock, transact } = deps;
  const grants = createServiceGrants(deps.perm);

  function view(owner: Account, s: Account, description: string): ServiceAccountView {
    const subname = subnameOf(s);
    return {
      // the owner's current name: a renamed owner's service accounts sign in under the new one
      account: `${owner.username}/${subname}`,
      status: s.disabled ? 'disabled' : 'enabled',
      sub_id: s.id,
      subname,
      ownerId: owner.id,
      ownerName: owner.username,
      realmId: s.realm_id,
      regist_area: s.regist_area,
      first_login_need_reset_password: Boolean(s.force_password),
      description,
      createdAt: Number(s.created_at),
      updatedAt: Number(s.updated_at),
      lastLoginTime: s.last_login_at === null ? null : Number(s.last_login_at),
    };
  }

  /** The owner an administrator names: a person of that realm, else 1004 (A-39: another realm's id finds nothing). */
  async function ownerIn(realmId: string, ownerId: string): Promise<Account> {
    const owner = await accounts.findAccountById(realmId, ownerId);
    assertThat(owner && owner.kind === 'person', 'NOT_FOUND');
    return owner;
  }

  /** The caller as owner (own door): only a person owns service accounts. */
  function ownerSelf(caller: Caller, action: string): Account {
    assertThat(caller.account.kind === 'person', 'FORBIDDEN', { service: 'users', resource: 'userService', perm: action });
    return caller.account;
  }

  async function serviceOf(owner: Account, serviceId: string): Promise<Account> {
    const s = await accounts.findAccountById(owner.realm_id, serviceId);
    assertThat(s && s.kind === 'service' && s.owner_id === owner.id, 'NOT_FOUND');
    return s;
  }

  async function reload(owner: Account, serviceId: string, trx?: Db): Promise<ServiceAccountView> {
    const s = await accounts.findAccountById(owner.realm_id, serviceId, trx);
    assertThat(s, 'NOT_FOUND');
    const profile = await profiles.findServiceProfile(owner.realm_id, serviceId, trx);
    return view(owner, s, profile.description);
  }

  function record(caller: Caller, owner: Account, s: Pick<Account, 'id' | 'username'>, action: string, trx: Db, changes?: string[]) {
    return audit.record(
      {
        realmId: owner.realm_id,
        actor: caller.actor,
        action,
        target: { type: 'service', id: s.id, name: `${owner.username}/${subnameOf(s)}` },
        result: 'ok',
        request: caller.request,
        ...(changes ? { changes } : {}),
        detail: { owner: owner.username },
      },
      trx,
    );
  }

  async function list(owner: Account, q: ServiceListQuery): Promise<ServiceAccountPage> {
    const boundary = decodeCursor(q.cursor);
    const backwards = q.direction === 'prev' && boundary !== undefined;
    const prefix = q.q ? normaliseUsername(q.q) : undefined;
    const [rows, total] = await Promise.all([
      accounts.listServices(owner.realm_id, owner.id, { prefix, after: boundary, backwards, limit: q.limit + 1 }),
      accounts.countServices(owner.realm_id, owner.id, prefix),
    ]);
    // One row more than asked says whether a page lies beyond, in the direction read.
    const more = rows.length > q.limit;
    const page = backwards ? rows.slice(more ? 1 : 0) : rows.slice(0, q.limit);
    const descriptions = await profiles.findServiceDescriptions(
      owner.realm_id,
      page.map((r) => r.id),
    );
    const first = page[0];
    const last = page[page.length - 1];
    return {
      owner: { id: owner.id, name: owner.username, realmId: owner.realm_id },
      items: page.map((s) => view(owner, s, descriptions.get(s.id) ?? '')),
      total,
      nextCursor: last && (backwards || more) ? encodeCursor(last.username_norm) : null,
      prevCursor: first && (backwards ? more : boundary !== undefined) ? encodeCursor(first.username_norm) : null,
    };
  }

  async function get(owner: Account, serviceId: string): Promise<ServiceAccountView> {
    const s = await serviceOf(owner, serviceId);
    return view(owner, s, (await profiles.findServiceProfile(owner.realm_id, s.id)).description);
  }

  async function create(caller: Caller, owner: Account, body: ServiceCreateBody): Promise<ServiceAccountView> {
    assertAcceptablePassword(body.password, await deps.passwordMinOf(owner.realm_id));
    const taken = () => fail('SERVICE_NAME_TAKEN', { field: 'subname' });
    // Names are compared folded (case, look-alikes), as sign-in finds them.
    if (await accounts.findAccountByUsername(owner.realm_id, `${owner.username}/${body.subname}`)) throw taken();
    const passwordHash = await hashPassword(body.password);
    const now = clock.now();
    try {
      return await transact(async (trx) => {
        const forcePassword = body.first_login_need_reset_password ?? true;
        const s = await accounts.insertService({ owner, subname: body.subname, passwordHash, forcePassword, now }, trx);
        if (body.regist_area) await accounts.updateService(owner.realm_id, owner.id, s.id, { regist_area: body.regist_area }, now, trx);
        await profiles.saveServiceProfile({ realmId: owner.realm_id, accountId: s.id, ownerId: owner.id }, { description: body.description ?? '' }, now, trx);
        const set = [
          'subname',
          'password',
          'first_login_need_reset_password',
          ...(body.description ? ['description'] : []),
          ...(body.regist_area ? ['regist_area'] : []),
        ];
        await record(caller, owner, s, 'service.create', trx, set);
        return reload(owner, s.id, trx);
      });
    } catch (err) {
      // Two creations of one name at once: the unique index keeps one, the other is told.
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  }

  async function update(caller: Caller, owner: Account, serviceId: string, body: ServiceUpdateBody): Promise<ServiceAccountView> {
    const s = await serviceOf(owner, serviceId);
    const profile = await profiles.findServiceProfile(owner.realm_id, s.id);
    const changes: string[] = [];
    if (body.description !== undefined && body.description !== profile.description) changes.push('description');
    if (body.regist_area !== undefined && body.regist_area !== s.regist_area) changes.push('regist_area');
    const force = body.first_login_need_reset_password;
    if (force !== undefined && force !== Boolean(s.force_password)) changes.push('first_login_need_reset_password');
    if (changes.length === 0) return view(owner, s, profile.description);
    return transact(async (trx) => {
      const now = clock.now();
      const patch = {
        ...(changes.includes('regist_area') ? { regist_area: body.regist_area } : {}),
        ...(changes.includes('first_login_need_reset_password') ? { force_password: force ? 1 : 0 } : {}),
      };
      assertThat(await accounts.updateService(owner.realm_id, owner.id, s.id, patch, now, trx), 'NOT_FOUND');
      if (changes.includes('description')) {
        await profiles.saveServiceProfile({ realmId: owner.realm_id, accountId: s.id, ownerId: owner.id }, { description: body.description! }, now, trx);
      }
      await record(caller, owner, s, 'service.update', trx, changes);
      return reload(owner, s.id, trx);
    });
  }

  /** SPEC §4: enable / disable (after the console's confirmation). Disabling ends its sessions. */
  async function setEnabled(caller: Caller, owner: Account, serviceId: string, enabled: boolean): Promise<ServiceAccountView> {
    const s = await serviceOf(owner, serviceId);
    return transact(async (trx) => {
      const now = clock.now();
      assertThat(await accounts.updateService(owner.realm_id, owner.id, s.id, { disabled: enabled ? 0 : 1 }, now, trx), 'NOT_FOUND');
      if (!enabled) await sessions.revokeAccountSessions(owner.realm_id, s.id, now, undefined, trx);
      await record(caller, owner, s, enabled ? 'service.enable' : 'service.disable', trx, ['status']);
      return reload(owner, s.id, trx);
    });
  }

  /** SPEC §4: delete; its sessions (so every token it holds), grants and any role binding go with the row (foreign keys). */
  async function remove(caller: Caller, owner: Account, serviceId: string): Promise<void> {
    const s = await serviceOf(owner, serviceId);
    await transact(async (trx) => {
      assertThat(await accounts.deleteService(owner.realm_id, owner.id, s.id, trx), 'NOT_FOUND');
      await record(caller, owner, s, 'service.delete', trx);
    });
  }

  /**
   * The owner or an administrator sets the password (SPEC §2 "change password"), by default
   * to be changed at the next sign-in. Whoever sets it could then sign in as the service
   * account, so it must not hold more than they do (A-40 impersonation). Its sessions end.
   */
  async function setPassword(caller: Caller, owner: Account, serviceId: string, body: ServicePasswordBody): Promise<ServiceAccountView> {
    const s = await serviceOf(owner, serviceId);
    await grants.assertNotAboveCaller(caller.principal, s);
    assertAcceptablePassword(body.password, await deps.passwordMinOf(owner.realm_id));
    const passwordHash = await hashPassword(body.password);
    const force = body.first_login_need_reset_password ?? true;
    return transact(async (trx) => {
      const now = clock.now();
      assertThat(
        await accounts.updateService(owner.realm_id, owner.id, s.id, { password_hash: passwordHash, force_password: force ? 1 : 0 }, now, trx),
        'NOT_FOUND',
      );
      await sessions.revokeAccountSessions(owner.realm_id, s.id, now, undefined, trx);
      await record(caller, owner, s, 'service.password', trx, ['password', 'first_login_need_reset_password']);
      return reload(owner, s.id, trx);
    });
  }

  async function getResources(caller: Caller, owner: Account, serviceId: string): Promise<ServiceResourcesView> {
    const s = await serviceOf(owner, serviceId);
    const profile = await profiles.findServiceProfile(owner.realm_id, s.id);
    return grants.describe(caller.principal, owner, s, profile.grants);
  }

  /** "Resources": the whole set of grants, each within the owner's permissions and the caller's. */
  async function setResources(caller: Caller, owner: Account, serviceId: string, wanted: PermissionGrant[]): Promise<ServiceResourcesView> {
    const s = await serviceOf(owner, serviceId);
    const next = await grants.checkGrants(caller.principal, owner, wanted);
    const before = await profiles.findServiceProfile(owner.realm_id, s.id);
    await transact(async (trx) => {
      await profiles.saveServiceGrants({ realmId: owner.realm_id, accountId: s.id, ownerId: owner.id }, next, clock.now(), trx);
      await record(caller, owner, s, 'service.resources', trx, grants.changedIds(before.grants, next));
    });
    return grants.describe(caller.principal, owner, s, next);
  }

  return { ownerIn, ownerSelf, list, get, create, update, setEnabled, remove, setPassword, getResources, setResources };
}

export type ServiceAccountService = ReturnType<typeof createServiceAccountService>;
