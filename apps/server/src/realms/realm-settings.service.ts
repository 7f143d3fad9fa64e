/**
 * Reading and changing a realm's settings record (SPEC §3) for administrators: who may
 * (the `domain` permission in that realm, or admin of the master realm: A-39), what is
 * kept when a field is omitted, and how the record is written (one compare-and-set update,
 * so a refused change writes nothing and a concurrent one is never lost).
 */
import type { z } from 'zod';
import type { RealmSettingsView, realmSettingsPatch } from '@umbo/contracts';
import type { AuditService } from '../audit/audit.service.js';
import type { Clock } from '../platform/clock.js';
import type { Secrets } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { MASTER_REALM } from '../perm/perm.service.js';
import { defaultRealmSettings, parseStoredSettings, protectionOf, readRealmSettings, type StoredRealmSettings } from './realm-settings.js';
import { emailView, mergeEmail, mergeSms, smsView } from './realm-settings.groups.js';
import { backendView, mergeBackend, mergeOAuth, oauthView, SECRET_PATHS } from './realm-settings.backend.js';
import type { RealmRepo } from './realms.repo.js';

/** Who asks, for the audit trail (audit/request-meta.ts). */
export interface Caller {
  actor: { id: string; name: string } | null;
  request?: { ip: string; userAgent: string };
}

export type RealmSettingsPatchInput = z.output<typeof realmSettingsPatch>;

/** Attempts before a PATCH that keeps meeting concurrent writes gives up (1202). */
const CAS_ATTEMPTS = 3;

export function toView(realmId: string, s: StoredRealmSettings): RealmSettingsView {
  return {
    realmId,
    backend_type: s.backend_type,
    backend: backendView(s.backend),
    backend_realm_id: s.backend_realm_id,
    backend_regist_url: s.backend_regist_url,
    oauth: oauthView(s.oauth),
    protection: protectionOf(s),
    backend_support_login_method: s.backend_support_login_method,
    backend_support_regist_method: s.backend_support_regist_method,
    backend_support_find_back_method: s.backend_support_find_back_method,
    backend_support_login_regions: s.backend_support_login_regions,
    needActive: s.needActive,
    activeEmailTpl: s.activeEmailTpl,
    resetEmailTpl: s.resetEmailTpl,
    logo_img_url: s.logo_img_url,
    icon_img_url: s.icon_img_url,
    default_client_id: s.default_client_id,
    accountCertValidity: s.accountCertValidity,
    realmMiddleCertValidity: s.realmMiddleCertValidity,
    certExpiryNoticeDays: s.certExpiryNoticeDays,
    captchaPolicy: s.captchaPolicy,
    revealMissingAccounts: s.revealMissingAccounts,
    passwordMinLength: s.passwordMinLength,
    email: emailView(s.email),
    sms: smsView(s.sms),
  };
}

/** Backend types that talk to an external account store and so need their group (SPEC §3). */
const EXTERNAL_TYPES = new Set(['ecogloble', 'bigdata', 'aliliving']);

const at = (o: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);

/** Names of the fields a write changed (audit: names only, never values); secrets by their path. */
export function changedFields(before: Partial<StoredRealmSettings>, after: Partial<StoredRealmSettings>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed = [...keys].filter((k) => JSON.stringify(before[k as keyof StoredRealmSettings]) !== JSON.stringify(after[k as keyof StoredRealmSettings]));
  // A re-sealed secret differs even when unchanged in value; only its presence is told apart.
  for (const p of SECRET_PATHS) if (Boolean(at(before, p)) !== Boolean(at(after, p)) || (at(after, p) && at(before, p) !== at(after, p))) changed.push(p);
  return changed.sort();
}

export function createRealmSettingsService(deps: {
  realms: RealmRepo;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  audit: AuditService;
  /** may default_client_id name this client (issue 12)? clients sit above realms: passed in */
  isDefaultClientCandidate?: ((realmId: string, clientId: string) => Promise<boolean>) | undefined;
}) {
  const { realms, secrets, clock, transact, audit } = deps;
  const seal = (plain: string) => secrets.encrypt(plain);

  /**
   * The guard already decided `domain.<action>` in this realm (config.realm), before the
   * lookup, so a refusal never told whether the realm exists.
   */
  async function load(realmId: string) {
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    return realm;
  }

  async function get(realmId: string): Promise<RealmSettingsView> {
    const realm = await load(realmId);
    return toView(realmId, readRealmSettings(realm.settings));
  }

  /** The stored record after `patch`: only the fields sent change; unknown stored keys stay. */
  function apply(realmId: string, stored: Partial<StoredRealmSettings>, patch: RealmSettingsPatchInput): Partial<StoredRealmSettings> {
    const { email, sms, backend, oauth, protection, ...plain } = patch;
    const next: Partial<StoredRealmSettings> = { ...stored, ...plain };
    if (email === null) delete next.email;
    else if (email) next.email = mergeEmail(stored.email, email, seal);
    if (sms === null) delete next.sms;
    else if (sms) next.sms = mergeSms(stored.sms, sms, seal);
    if (oauth === null) delete next.oauth;
    else if (oauth) next.oauth = mergeOAuth(stored.oauth, oauth, seal);
    if (protection === null) delete next.protection;
    else if (protection) next.protection = protection;
    applyBackend(next, stored, patch);
    const merged = { ...defaultRealmSettings(), ...next };
    // DESIGN.md §4: the account CA is issued under the realm intermediate, so it cannot outlive it.
    if (merged.accountCertValidity > merged.realmMiddleCertValidity) {
      const field = patch.accountCertValidity !== undefined ? 'accountCertValidity' : 'realmMiddleCertValidity';
      throw fail('INVALID_PARAMETER', { field, reason: 'accountCertValidity must not exceed realmMiddleCertValidity' });
    }
    // The console's administrators sign in to the master realm by password (SPEC §4); turning
    // it off there would lock them out of the very screen that turns it back on.
    if (realmId === MASTER_REALM && !merged.backend_support_login_method.includes('password')) {
      throw fail('INVALID_PARAMETER', { field: 'backend_support_login_method', reason: 'the master realm keeps password sign-in' });
    }
    return next;
  }

  /** backend_type and its group agree (SPEC §3, §5): an external type needs its group, and then the backend realm id and register URL. */
  function applyBackend(next: Partial<StoredRealmSettings>, stored: Partial<StoredRealmSettings>, patch: RealmSettingsPatchInput): void {
    const { backend } = patch;
    if (backend && patch.backend_type && backend.type !== patch.backend_type) {
      throw fail('INVALID_PARAMETER', { field: 'backend.type', reason: 'backend.type must equal backend_type' });
    }
    if (backend === null) delete next.backend;
    else if (backend) {
      next.backend = mergeBackend(stored.backend, backend, seal);
      next.backend_type = backend.type;
    }
    const type = next.backend_type ?? 'default';
    // A group left from another type is stale: it goes with the type it was made for.
    if (next.backend && next.backend.type !== type) delete next.backend;
    if (EXTERNAL_TYPES.has(type) && !next.backend) throw fail('INVALID_PARAMETER', { field: 'backend', reason: 'validation.required' });
    if (next.backend) {
      if (!next.backend_realm_id) throw fail('INVALID_PARAMETER', { field: 'backend_realm_id', reason: 'validation.required' });
      if (!next.backend_regist_url) throw fail('INVALID_PARAMETER', { field: 'backend_regist_url', reason: 'validation.required' });
    }
  }

  /**
   * The record after `patch`, checked (1009 naming the field, nothing written otherwise), for
   * a realm being created: the defaults plus the patch.
   */
  function initial(realmId: string, patch: RealmSettingsPatchInput | undefined): Partial<StoredRealmSettings> {
    return apply(realmId, { ...defaultRealmSettings() }, patch ?? {});
  }

  async function update(realmId: string, patch: RealmSettingsPatchInput, caller: Caller): Promise<RealmSettingsView> {
    let realm = await load(realmId);
    const defaultClientId = patch.default_client_id;
    if (defaultClientId !== undefined && defaultClientId !== readRealmSettings(realm.settings).default_client_id && deps.isDefaultClientCandidate) {
      // the realm's sign-in pages use it: an enabled top-level client of this realm
      const known = defaultClientId !== '' && (await deps.isDefaultClientCandidate(realmId, defaultClientId));
      if (!known) throw fail('DEFAULT_CLIENT_UNKNOWN', { field: 'default_client_id' });
    }
    for (let attempt = 1; ; attempt++) {
      const before = parseStoredSettings(realm.settings);
      const next = apply(realmId, before, patch);
      const written = await transact(async (trx) => {
        if (!(await realms.updateRealmSettings(realmId, realm.settings, JSON.stringify(next), clock.now(), trx))) return false;
        const changes = changedFields(before, next);
        await audit.record(
          {
            realmId,
            actor: caller.actor,
            action: 'realm.settings',
            target: { type: 'realm', id: realmId, name: realm.name },
            result: 'ok',
            request: caller.request,
            changes,
          },
          trx,
        );
        return true;
      });
      if (written) {
        return toView(realmId, { ...defaultRealmSettings(), ...next });
      }
      if (attempt >= CAS_ATTEMPTS) throw fail('RETRY_LATER');
      const again = await realms.findRealmById(realmId);
      assertThat(again, 'NOT_FOUND');
      realm = again;
    }
  }

  return { get, update, initial };
}

export type RealmSettingsService = ReturnType<typeof createRealmSettingsService>;
