/**
 * The realm's accounts as administrators see them (issue 11), wired apart from services.ts to
 * keep the composition root readable: service (sub) accounts, the person list, one person, bulk
 * actions, CSV import and export, and "Refresh from backend" for IT-federated realms (issue 14).
 */
import type { AuditService } from '../audit/audit.service.js';
import { createPersonAdminService } from '../directory/person-admin.service.js';
import { createPersonBulkService } from '../directory/person-bulk.service.js';
import { createPersonImportService } from '../directory/person-import.service.js';
import { createPersonListService } from '../directory/person-list.service.js';
import { createServiceAccountService } from '../directory/service-accounts.service.js';
import type { AliLivingService } from '../federation/aliliving/aliliving.service.js';
import type { AccountsCreated } from '../federation/bigdata/bigdata.events.js';
import type { ItFederation } from '../federation/it/it.service.js';
import { createPersonRefreshService } from '../federation/it/refresh.service.js';
import { sessionsEndingGrants } from '../oauth/tokens/session-hooks.js';
import type { TokenRevocation } from '../oauth/tokens/revocation.js';
import type { PermService } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import type { Transact } from '../platform/db.js';
import type { RealmPolicy } from '../realms/realm-policy.js';
import type { Repos } from './repos.js';

export interface DirectoryInputs {
  repos: Repos;
  /** the audit trail that also reports account events to a bigdata realm (issue 14) */
  audit: AuditService & { accountsCreated: AccountsCreated };
  perm: PermService;
  oauthRevocation: TokenRevocation;
  realmPolicy: RealmPolicy;
  aliLiving: AliLivingService;
  itFederation: ItFederation;
  clock: Clock;
  transact: Transact;
}

export function createDirectory(i: DirectoryInputs) {
  const { repos, audit, perm, oauthRevocation, realmPolicy, aliLiving, itFederation, clock, transact } = i;
  // service (sub) accounts: administrators' and owners' doors (issue 11)
  const serviceAccounts = createServiceAccountService({
    accounts: repos.accounts,
    profiles: repos.serviceAccounts,
    sessions: sessionsEndingGrants(repos.sessions, oauthRevocation, 'admin_action'),
    perm,
    audit,
    passwordMinOf: async (realmId) => (await realmPolicy.settingsOf(realmId)).passwordMinLength,
    clock,
    transact,
  });

  // person accounts of a realm (issue 11): list, one account, bulk, CSV import and export
  const realmPasswordMin = async (realmId: string) => (await realmPolicy.settingsOf(realmId)).passwordMinLength;
  const personAdmin = createPersonAdminService({
    accounts: repos.accounts,
    audit,
    perm,
    sessions: sessionsEndingGrants(repos.sessions, oauthRevocation, 'admin_action'),
    otp: repos.otp,
    realmPasswordMin,
    // shown only in realms whose backend is `aliliving` (issue 14)
    aliLivingLinkOf: async (realmId, accountId) =>
      (await realmPolicy.settingsOf(realmId)).backend_type === 'aliliving' ? aliLiving.linkOf(realmId, accountId) : undefined,
    clock,
    transact,
  });
  const personList = createPersonListService({ accounts: repos.accounts, audit, assertRealm: async (realmId) => void (await realmPolicy.settingsOf(realmId)) });
  const personBulk = createPersonBulkService({
    accounts: repos.accounts,
    audit,
    sessions: sessionsEndingGrants(repos.sessions, oauthRevocation, 'admin_action'),
    admin: personAdmin,
    clock,
    transact,
  });
  // issue 14: each imported account is reported to a bigdata realm's data centre with the import
  const personImport = createPersonImportService({
    accounts: repos.accounts,
    audit,
    accountsCreated: audit.accountsCreated,
    realmPasswordMin,
    clock,
    transact,
  });
  // issue 14: "Refresh from backend" — shadow accounts take their IT backend's current name, e-mail and phone
  const personRefresh = createPersonRefreshService({
    settingsOf: realmPolicy.settingsOf,
    federation: itFederation,
    accounts: repos.accounts,
    links: repos.itShadowLinks,
    audit,
    admin: personAdmin,
    clock,
    transact,
  });

  return { serviceAccounts, personAdmin, personList, personBulk, personImport, personRefresh };
}
