/**
 * Realm export and import as one JSON document (issue 11): settings, custom roles, optionally
 * the accounts with their password hashes (later: clients).
 *
 * Secrets. A file must not hand anyone who reads it a mail password or API secret, yet an
 * import must be able to put them back. Each secret is exported sealed with this
 * installation's key and bound to its field and to the rest of its group (host, port, user,
 * endpoint…): an import opens it, checks it sits where it was exported from, and seals it
 * again (fresh nonce) for the target realm. A file from another installation cannot be opened
 * here: the dry run lists those fields under secretsToEnterAgain and the import takes them
 * in `secrets`. A secret moved to another field, or a group whose destination was edited in
 * the file, is refused (1035): otherwise a forged file could send a kept password elsewhere.
 *
 * Import is all-or-nothing in one transaction; a dry run runs the very same transaction and
 * rolls it back, so its report includes what only the database can tell (a duplicate email).
 */
import {
  ACTIONS,
  PERMISSION_IDS,
  REALM_EXPORT_FORMAT,
  BRANDING_PATH,
  realmCreate,
  realmSettingsPatch,
  roleCreateBody,
  type Action,
  type RealmExport,
  type RealmImportReport,
} from '@umbo/contracts';
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import { normaliseEmail, normaliseUsername } from '../accounts/accounts.repo.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PermissionGrant } from '../perm/builtin-roles.js';
import { MASTER_REALM, type PermService, type Principal } from '../perm/perm.service.js';
import type { RoleRepo } from '../perm/roles.repo.js';
import type { Clock } from '../platform/clock.js';
import type { Secrets } from '../platform/crypto.js';
import { isUniqueViolation, type Db, type Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { readRealmSettings } from './realm-settings.js';
import { SECRET_PATHS } from './realm-settings.backend.js';
import type { Caller, RealmSettingsService } from './realm-settings.service.js';
import type { RealmRepo } from './realms.repo.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const ARGON2 = /^\$argon2(id|i|d)\$/;
const PAGE = 1000;

/** JSON with keys sorted at every level: the same group always digests the same. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

const invalid = (field: string, reason: string) => fail('IMPORT_INVALID', { field, reason });

class DryRunDone extends Error {
  constructor(public readonly report: RealmImportReport) {
    super('dry run');
  }
}

/** What realm transfer needs of the service-account profiles (directory/service-accounts.repo.ts). */
export interface ServiceProfiles {
  list(realmId: string): Promise<Map<string, { description: string; grants: PermissionGrant[] }>>;
  save(
    key: { realmId: string; accountId: string; ownerId: string },
    profile: { description: string; grants: PermissionGrant[] },
    now: number,
    trx: Db,
  ): Promise<void>;
}

export interface ImportInput {
  targetRealmId?: string | undefined;
  document: RealmExport;
  secrets?: Record<string, string> | undefined;
}

export function createRealmTransferService(deps: {
  realms: RealmRepo;
  settings: Pick<RealmSettingsService, 'initial'>;
  accounts: Pick<AccountRepo, 'listAccounts' | 'findAccountByUsername' | 'findAccountById' | 'insertPerson' | 'insertService' | 'updateAccount'>;
  roles: Pick<RoleRepo, 'listRealmRoles' | 'upsertRealmRole'>;
  perm: Pick<PermService, 'allows'>;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  audit: AuditService;
  /** service accounts' descriptions and grants: the directory area's, passed down (it sits above realms) */
  serviceProfiles: ServiceProfiles;
  /** upper areas' part of an imported realm, in its transaction (issue 12: a default client its settings name) */
  onImported?: readonly ((realmId: string, trx: Db) => Promise<unknown>)[] | undefined;
}) {
  const { realms, accounts, roles, perm, secrets, clock, transact, audit, serviceProfiles } = deps;
  const bindingOf = (path: string, group: Obj) => {
    const field = path.split('.')[1]!;
    const { [field]: _secret, ...rest } = group;
    return secrets.hash('realm-export', `${path}\0${canonical(rest)}`);
  };
  const refused = (resource: string, action: string) => fail('FORBIDDEN', { service: 'users', resource, perm: action });

  async function exportRealm(realmId: string, withAccounts: boolean, p: Principal): Promise<RealmExport> {
    if (withAccounts && !perm.allows(p, 'person', 'export', realmId)) throw refused('person', 'export');
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    const settings = readRealmSettings(realm.settings) as unknown as Obj;
    for (const path of SECRET_PATHS) {
      const [g, f] = path.split('.') as [string, string];
      const group = settings[g];
      if (!isObj(group) || typeof group[f] !== 'string' || !group[f]) continue;
      const sealed = secrets.encrypt(JSON.stringify({ f: path, d: bindingOf(path, group), v: secrets.decrypt(group[f]) }));
      settings[g] = { ...group, [f]: { sealed } };
    }
    // An uploaded picture travels as the data URL it was uploaded as.
    for (const [field, kind] of [
      ['logo_img_url', 'logo'],
      ['icon_img_url', 'icon'],
    ] as const) {
      if (typeof settings[field] !== 'string' || !BRANDING_PATH.test(settings[field])) continue;
      const img = await realms.findBranding(realmId, kind);
      settings[field] = img ? `data:${img.content_type};base64,${img.data}` : '';
    }
    const roleRows = await roles.listRealmRoles(realmId);
    const doc: RealmExport = {
      format: REALM_EXPORT_FORMAT,
      exportedAt: clock.now(),
      realm: { realmId: realm.id, domain: realm.name, description: realm.description },
      settings,
      roles: roleRows.map((r) => ({ id: r.id, name: r.name, description: r.description, permissions: r.permissions })),
    };
    if (withAccounts) {
      const profiles = await serviceProfiles.list(realmId);
      doc.accounts = (await allAccounts(realmId)).map((a) => {
        const profile = a.kind === 'service' ? profiles.get(a.id) : undefined;
        return { ...exportedAccount(a), ...(a.kind === 'service' ? { description: profile?.description ?? '', grants: profile?.grants ?? [] } : {}) };
      });
    }
    return doc;
  }

  async function allAccounts(realmId: string): Promise<Account[]> {
    const out: Account[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await accounts.listAccounts(realmId, { limit: PAGE, offset });
      out.push(...page);
      if (page.length < PAGE) return out;
    }
  }

  const exportedAccount = (a: Account) => ({
    id: a.id,
    kind: a.kind,
    ownerId: a.owner_id,
    username: a.username,
    email: a.email,
    phone: a.phone,
    passwordHash: a.password_hash,
    disabled: !!a.disabled,
    activated: !!a.activated,
    forcePassword: !!a.force_password,
    registArea: a.regist_area,
    createdAt: Number(a.created_at),
  });

  /** The file's settings as a PATCH body: each exported secret opened (or taken from `given`). */
  function openSettings(settings: Obj, given: Record<string, string>, toEnterAgain: string[]): Obj {
    const out: Obj = { ...settings };
    for (const path of SECRET_PATHS) {
      const [g, f] = path.split('.') as [string, string];
      const group = out[g];
      if (!isObj(group) || group[f] === undefined) continue;
      const value = group[f];
      if (!isObj(value) || typeof value.sealed !== 'string') throw invalid(`settings.${path}`, 'a secret must be exported sealed');
      let plain: string | undefined;
      try {
        const opened = JSON.parse(secrets.decrypt(value.sealed)) as { f?: unknown; d?: unknown; v?: unknown };
        if (opened.f !== path || opened.d !== bindingOf(path, group) || typeof opened.v !== 'string') {
          throw invalid(`settings.${path}`, 'the secret does not belong to this field or destination');
        }
        plain = opened.v;
      } catch (err) {
        if ((err as { def?: unknown }).def) throw err;
        // Sealed by another installation: it must be entered again.
        plain = given[path];
        if (plain === undefined) toEnterAgain.push(path);
      }
      out[g] = { ...group, [f]: plain };
      if (plain === undefined) delete (out[g] as Obj)[f];
    }
    return out;
  }

  function checkRoles(doc: RealmExport, target: string, p: Principal) {
    for (const [i, role] of doc.roles.entries()) {
      const parsed = roleCreateBody.safeParse({ name: role.name, description: role.description, permissions: role.permissions });
      if (!parsed.success) throw invalid(`roles.${i}.${parsed.error.issues[0]?.path.join('.') ?? ''}`, parsed.error.issues[0]?.message ?? 'invalid');
      // A-40: an import grants nothing its importer does not hold in that realm.
      for (const g of role.permissions) {
        if (!PERMISSION_IDS.includes(g.permissionId as never)) throw invalid(`roles.${i}.permissions`, 'unknown permission');
        for (const action of g.actions) {
          if (!ACTIONS.includes(action as Action)) throw invalid(`roles.${i}.permissions`, 'unknown action');
          if (!perm.allows(p, g.permissionId, action as Action, target)) throw fail('ROLE_TOO_WIDE', { permissionId: g.permissionId, action });
        }
      }
    }
  }

  function checkAccounts(list: NonNullable<RealmExport['accounts']>) {
    const names = new Set<string>();
    const people = new Map(list.filter((a) => a.kind === 'person').map((a) => [a.id, a]));
    for (const [i, a] of list.entries()) {
      const norm = normaliseUsername(a.username);
      if (names.has(norm)) throw invalid(`accounts.${i}.username`, 'duplicate in the file');
      names.add(norm);
      if (a.passwordHash !== null && !ARGON2.test(a.passwordHash)) throw invalid(`accounts.${i}.passwordHash`, 'an argon2 hash or null');
      if (a.kind === 'service') {
        const owner = a.ownerId ? people.get(a.ownerId) : undefined;
        if (!owner || !a.username.startsWith(`${owner.username}/`)) throw invalid(`accounts.${i}.ownerId`, 'a person of the file, named as owner/');
        if (!a.passwordHash) throw invalid(`accounts.${i}.passwordHash`, 'validation.required');
        // Grants only narrow the owner's own rights (perm.service), so known names are all to check.
        for (const g of a.grants ?? []) {
          if (!PERMISSION_IDS.includes(g.permissionId as never)) throw invalid(`accounts.${i}.grants`, 'unknown permission');
          if (g.actions.some((x) => !ACTIONS.includes(x as Action))) throw invalid(`accounts.${i}.grants`, 'unknown action');
        }
      } else if (a.grants || a.description !== undefined) {
        throw invalid(`accounts.${i}.grants`, 'service accounts only');
      }
    }
  }

  async function importRealm(input: ImportInput, dryRun: boolean, caller: Caller & { principal: Principal }): Promise<RealmImportReport> {
    const p = caller.principal;
    const doc = input.document;
    const realmRules = realmCreate.safeParse({
      realmId: input.targetRealmId ?? doc.realm.realmId,
      domain: doc.realm.domain,
      description: doc.realm.description,
    });
    if (!realmRules.success) throw invalid(`realm.${String(realmRules.error.issues[0]?.path[0] ?? '')}`, realmRules.error.issues[0]?.message ?? 'invalid');
    const target = realmRules.data.realmId;
    const existing = await realms.findRealmById(target);
    if (
      existing
        ? !perm.allows(p, 'domain', 'import', target)
        : !(perm.allows(p, 'domain', 'add', MASTER_REALM) && perm.allows(p, 'domain', 'import', MASTER_REALM))
    ) {
      throw refused('domain', existing ? 'import' : 'add');
    }
    if (doc.accounts && !perm.allows(p, 'person', 'import', target)) throw refused('person', 'import');
    const toEnterAgain: string[] = [];
    const patch = realmSettingsPatch.safeParse(openSettings(doc.settings, input.secrets ?? {}, toEnterAgain));
    if (!patch.success) {
      const issue = patch.error.issues[0];
      const keys = issue?.code === 'unrecognized_keys' ? issue.keys : [];
      throw invalid(['settings', ...(issue?.path ?? []), ...keys.slice(0, 1)].join('.'), issue?.message ?? 'invalid');
    }
    const settings = deps.settings.initial(target, patch.data);
    checkRoles(doc, target, p);
    if (doc.accounts) checkAccounts(doc.accounts);

    const report: RealmImportReport = {
      dryRun,
      realmId: target,
      realm: existing ? 'replace' : 'create',
      roles: { create: [], replace: [] },
      accounts: { create: 0, replace: 0 },
      secretsToEnterAgain: toEnterAgain,
    };
    try {
      await transact(
        async (trx) => {
          const now = clock.now();
          const row = { id: target, name: doc.realm.domain, description: doc.realm.description, settings: JSON.stringify(settings), updated_at: now };
          if (existing) await realms.replaceRealm(row, trx);
          else await realms.insertRealm({ ...row, created_at: now }, trx);
          for (const hook of deps.onImported ?? []) await hook(target, trx);
          for (const role of doc.roles) {
            const permissions = role.permissions as PermissionGrant[];
            const res = await roles.upsertRealmRole(
              { id: role.id, realm_id: target, name: role.name, description: role.description, permissions, created_at: now },
              trx,
            );
            report.roles[res.created ? 'create' : 'replace'].push(role.name);
          }
          if (doc.accounts) await importAccounts(target, doc.accounts, now, report, trx);
          const detail = { created: !existing, roles: doc.roles.length, accounts: doc.accounts?.length ?? 0 };
          await audit.record(
            {
              realmId: target,
              actor: caller.actor,
              action: 'realm.import',
              target: { type: 'realm', id: target, name: row.name },
              result: 'ok',
              request: caller.request,
              detail,
            },
            trx,
          );
          if (dryRun) throw new DryRunDone(report);
        },
        { large: true },
      );
    } catch (err) {
      if (err instanceof DryRunDone) return err.report;
      if (isUniqueViolation(err)) throw invalid(doc.accounts ? 'accounts' : 'realm', 'duplicate (user name, email or phone already taken)');
      throw err;
    }
    return report;
  }

  /** People first, then their service accounts; an account of the same user name is replaced. */
  async function importAccounts(realmId: string, list: NonNullable<RealmExport['accounts']>, now: number, report: RealmImportReport, trx: Db) {
    const ids = new Map<string, string>();
    for (const a of [...list.filter((x) => x.kind === 'person'), ...list.filter((x) => x.kind === 'service')]) {
      const found = await accounts.findAccountByUsername(realmId, a.username, trx);
      const fields = {
        email: a.email,
        email_norm: a.email ? normaliseEmail(a.email) : null,
        phone: a.phone,
        password_hash: a.passwordHash,
        disabled: a.disabled ? 1 : 0,
        activated: a.activated ? 1 : 0,
        force_password: a.forcePassword ? 1 : 0,
        regist_area: a.registArea,
        updated_at: now,
      };
      let id: string;
      if (found) {
        if (found.kind !== a.kind) throw invalid('accounts', `${a.username}: exists as another kind of account`);
        await accounts.updateAccount(realmId, found.id, fields, trx);
        id = found.id;
        report.accounts.replace++;
      } else if (a.kind === 'person') {
        id = (await accounts.insertPerson({ realmId, username: a.username, passwordHash: a.passwordHash, now }, trx)).id;
        await accounts.updateAccount(realmId, id, fields, trx);
        report.accounts.create++;
      } else {
        const owner = await accounts.findAccountById(realmId, ids.get(a.ownerId ?? '') ?? '', trx);
        assertThat(owner, 'IMPORT_INVALID', { field: 'accounts', reason: `${a.username}: owner missing` });
        const subname = a.username.slice(owner.username.length + 1);
        id = (await accounts.insertService({ owner, subname, passwordHash: a.passwordHash ?? '', forcePassword: a.forcePassword, now }, trx)).id;
        await accounts.updateAccount(realmId, id, fields, trx);
        report.accounts.create++;
      }
      ids.set(a.id, id);
      if (a.kind === 'service') {
        const ownerId = found?.owner_id ?? ids.get(a.ownerId ?? '') ?? '';
        // checked in checkAccounts: known permission ids and actions only
        await serviceProfiles.save(
          { realmId, accountId: id, ownerId },
          { description: a.description ?? '', grants: (a.grants ?? []) as PermissionGrant[] },
          now,
          trx,
        );
      }
    }
  }

  return { exportRealm, importRealm };
}

export type RealmTransferService = ReturnType<typeof createRealmTransferService>;
