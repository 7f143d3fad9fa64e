/**
 * Step 2 of the composition root: every service, built bottom up. Each line uses only what the
 * lines above it built — no closure over something declared later — in the order of the areas:
 *
 *   notify (delivery, outbox, security notices) · realm policy → codes, captcha → perm,
 *   sessions, sign-in throttle → one-time password → sign-in (password form, codes,
 *   registration, recovery, ftoken) → the user's own account → realm administration
 *
 * The one-time password and the security notices come before the sign-in flows that use
 * them: neither depends on a flow, which is how issue 9 broke the old cycle between them.
 * A new area adds its services here, as one more step at its place in that order.
 */
import { normaliseMobile } from '../accounts/phone.js';
import { createAuditReadService } from '../audit/audit-read.service.js';
import { createAuditService } from '../audit/audit.service.js';
import { createBigdataDelivery } from '../federation/bigdata/bigdata.delivery.js';
import { withBigdataEvents } from '../federation/bigdata/bigdata.events.js';
import { createSignInEvents } from '../audit/sign-in-events.js';
import { createAliLivingService } from '../federation/aliliving/aliliving.service.js';
import { createLivingApi } from '../federation/aliliving/living-api.js';
import { linkAfterSignIn } from '../federation/aliliving/sign-in-hook.js';
import { createCodeSignInService } from '../auth/flows/code-sign-in.service.js';
import type { FlowDeps } from '../auth/flows/deps.js';
import { createFTokenService } from '../auth/flows/ftoken.service.js';
import { createUpstreamClient } from '../federation/upstream/upstream-client.js';
import { createUpstreamService } from '../federation/upstream/upstream.service.js';
import { createRecoveryService } from '../auth/flows/recovery.service.js';
import { createRegistrationService } from '../auth/flows/registration.service.js';
import { createLoginService } from '../auth/login.service.js';
import { createItFederation } from '../federation/it/it.service.js';
import { createSessionService } from '../auth/sessions.service.js';
import { createReauth } from '../auth/throttle/reauth.js';
import { createThrottleService } from '../auth/throttle/throttle.service.js';
import { createCaptchaService } from '../captcha/captcha.service.js';
import { createCodeService } from '../codes/codes.service.js';
import { createMailLinkService } from '../codes/mail-links.service.js';
import { createBindCodes } from '../me/binding.codes.js';
import { createBindingService } from '../me/binding.service.js';
import { createMeService } from '../me/me.service.js';
import { createPreferencesReader } from '../me/me.settings.js';
import type { NotifyConfig } from '../notify/config.js';
import { createNotifyService } from '../notify/notify.service.js';
import { createOutboxService } from '../notify/outbox.service.js';
import { createSecurityNotices } from '../notify/security-notices.js';
import { createOtpService } from '../otp/otp.service.js';
import { createClientsService } from '../clients/clients.service.js';
import { createTokenRevocation } from '../oauth/tokens/revocation.js';
import { sessionServiceEndingGrants, sessionsEndingGrants } from '../oauth/tokens/session-hooks.js';
import { createOAuthProvider } from './oauth-services.js';
import { createDeviceCa } from './pki-services.js';
import { createDirectory } from './directory-services.js';
import { createPermService } from '../perm/perm.service.js';
import { createRolesService } from '../perm/roles.service.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Secrets } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';
import { createRealmPolicy } from '../realms/realm-policy.js';
import { createRealmSettingsService } from '../realms/realm-settings.service.js';
import { createRealmBrandingService } from '../realms/realm-branding.service.js';
import { createRealmTransferService } from '../realms/realm-transfer.service.js';
import { createRealmsService } from '../realms/realms.service.js';
import { protectionOf } from '../realms/realm-settings.js';
import { throttlePolicyOf, THROTTLE_DEFAULTS } from '../auth/throttle/defaults.js';
import { t } from '../platform/i18n.js';
import { PROTECTION_DEFAULTS, resolveLocale } from '@umbo/contracts';
import type { RequestWindow } from '../platform/metrics.js';
import { createDashboardService } from '../dashboard/dashboard.service.js';
import { createMonitorService, type HealthProbes } from '../dashboard/monitor.service.js';
import type { Repos, Stores } from './repos.js';

export interface ServiceInputs {
  /** the monitor's figures (platform/metrics.ts) and health pings (composition/context.ts) */
  requestWindow: RequestWindow;
  probes: HealthProbes;
  config: Config;
  clock: Clock;
  secrets: Secrets;
  log: Logger;
  repos: Repos;
  stores: Stores;
  transact: Transact;
  notifyConfig: NotifyConfig;
}

export function createServices(i: ServiceInputs) {
  const { config, clock, secrets, repos, stores, transact } = i;
  const siteTitle = config.siteTitle;

  // settings kept per instance while the auth epoch holds (realm edits bump it, migration 0031)
  const realmPolicy = createRealmPolicy(repos.realms, { readEpoch: repos.authEpoch.fresh });
  // the audit trail: every later service may record events in its own transactions
  // issue 14: a bigdata realm's account events are queued for its data centre in the same transaction
  const audit = withBigdataEvents(createAuditService({ repo: repos.audit, clock }), {
    queue: repos.bigdata,
    realms: repos.realms,
    settingsOf: realmPolicy.settingsOf,
    transact,
    clock,
  });
  // the queue's delivery loop (main.ts starts it) and its figures for the monitor
  const bigdata = createBigdataDelivery({ repo: repos.bigdata, realms: repos.realms, clock, log: i.log, options: config.bigdata });
  const auditReads = createAuditReadService({ audit, accounts: repos.accounts });
  // Ending OAuth grants needs repositories and the audit only: the account services below it
  // (password reset and change, disable, "log out all") end an account's grants with its sessions.
  const oauthRevocation = createTokenRevocation({ families: repos.oauthFamilies, revokedTokens: repos.oauthRevokedTokens, audit, clock });

  // notify: delivery of mail and SMS, the outbox, security notices
  const notify = createNotifyService({ config: i.notifyConfig, outbox: repos.outbox, secrets, clock, log: i.log.child({ name: 'notify' }) });
  const outbox = createOutboxService({ outbox: repos.outbox, secrets });
  const notices = createSecurityNotices({ notify, deliveryOf: realmPolicy.settingsOf, preferencesOf: createPreferencesReader(repos.me), siteTitle, clock });

  // codes and captcha
  const codes = createCodeService({
    store: stores.codes,
    secrets,
    clock,
    // the realm's wrong-try budget per code (issue 11); an unknown realm gets today's default
    maxAttemptsOf: (realmId) =>
      realmPolicy.settingsOf(realmId).then(
        (st) => protectionOf(st).codeMaxAttempts,
        () => PROTECTION_DEFAULTS.codeMaxAttempts,
      ),
  });
  const mailLinks = createMailLinkService({ repo: repos.mailLinks, secrets, clock });
  const captcha = createCaptchaService({ store: stores.codes, secrets, clock, settingsOf: realmPolicy.settingsOf });

  // permissions, sessions, sign-in throttling and the one-time password
  // a service account's grants live in the directory area, above perm: its reader is passed in
  const perm = createPermService(repos.roles, { serviceGrants: repos.serviceAccounts.findServicePrincipalSource });
  // roles and their assignment (issue 11); realms sit above perm, so their lookup is passed in
  const roles = createRolesService({
    roles: repos.roles,
    accounts: repos.accounts,
    perm,
    audit,
    realmExists: async (realmId) => Boolean(await repos.realms.findRealmById(realmId)),
    clock,
    transact,
  });
  const sessions = createSessionService({
    sessions: repos.sessions,
    accounts: repos.accounts,
    secrets,
    clock,
    idleMs: config.sessionIdleMs,
    // the guard's cache of session, account and principal, checked against the auth epoch (auth/auth-cache.ts)
    loadPrincipal: perm.loadPrincipal,
    readEpoch: repos.authEpoch.fresh,
  });
  // each realm's own sign-in protection (issue 11); an unknown realm gets today's defaults
  const throttlePolicyOfRealm = (realmId: string) =>
    realmPolicy.settingsOf(realmId).then(
      (st) => throttlePolicyOf(protectionOf(st)),
      () => THROTTLE_DEFAULTS,
    );
  const throttle = createThrottleService({ store: stores.throttle, secrets, clock, policyOf: throttlePolicyOfRealm });
  const reauth = createReauth({ throttle });
  const otp = createOtpService({ repo: repos.otp, secrets, clock, throttle, reauth, notices, issuer: siteTitle, transact });

  // signing in: the password form, then the public flows by code, registration and recovery
  // every sign-in, lock, code sent, registration, activation and password change goes to the audit trail
  // Ali Living (issue 14): a sign-in in an `aliliving` realm links the account afterwards, never during it
  const aliLiving = createAliLivingService({
    repo: repos.aliLiving,
    api: createLivingApi({ ...config.aliLiving, now: () => clock.now() }),
    settingsOf: realmPolicy.settingsOf,
    secrets,
    clock,
    log: i.log.child({ name: 'aliliving' }),
  });
  const signIns = linkAfterSignIn(createSignInEvents(audit), aliLiving.afterSignIn);
  // realms whose accounts live behind an IT-interface backend (issue 14): calls guarded by A-37's client
  const itFederation = createItFederation({
    accounts: repos.accounts,
    links: repos.itShadowLinks,
    transact,
    clock,
    secrets,
    counters: stores.codes,
    allowPrivate: i.notifyConfig.allowPrivateNetwork,
  });
  const login = createLoginService({
    accounts: repos.accounts,
    sessions,
    clock,
    throttle,
    otp,
    captcha,
    settingsOf: realmPolicy.settingsOf,
    signIns,
    federation: itFederation,
    transact,
  });
  const flows: FlowDeps = {
    publicUrl: config.publicUrl,
    siteTitle,
    clock,
    secrets,
    transact,
    store: stores.codes,
    accounts: repos.accounts,
    policy: realmPolicy,
    codes,
    mailLinks,
    captcha,
    notify,
    sessions: sessionServiceEndingGrants(sessions, oauthRevocation, 'password_reset'),
    secondFactor: otp,
    throttle,
    notices,
    signIns,
    federation: itFederation,
  };
  const codeSignIn = createCodeSignInService(flows);
  const registration = createRegistrationService(flows);
  const recovery = createRecoveryService(flows);
  const ftoken = createFTokenService(flows);
  // sign-in through the realm's upstream OpenID provider (issue 14); private upstreams only when the operator allows them
  const upstream = createUpstreamService({
    ...flows,
    identities: repos.federatedIdentities,
    audit,
    // the directory is built further down; the check runs only on an administrator's request
    assertNotWider: (call, account) => directory.personAdmin.assertNotWider(call, account, 'edit'),
    client: createUpstreamClient({ open: (sealed) => secrets.decrypt(sealed), allowPrivate: i.notifyConfig.allowPrivateNetwork, clock }),
  });

  // the signed-in user's own account
  const me = createMeService({
    accounts: repos.accounts,
    me: repos.me,
    realms: repos.realms,
    sessions: sessionsEndingGrants(repos.sessions, oauthRevocation, 'account_security'),
    reauth,
    clock,
    notices,
    otpEnabled: otp.isEnabled,
    transact,
    signIns,
  });
  const bindCodes = createBindCodes({ codes, notify, siteTitle, deliveryOf: realmPolicy.settingsOf });
  const binding = createBindingService({ accounts: repos.accounts, reauth, notices, clock, normaliseMobile, codes: bindCodes });

  // OAuth clients (issue 12): built before realm administration, which it serves through two
  // hooks (a new realm's default client; default_client_id must name a client): it needs repositories only
  const clients = createClientsService({
    clients: repos.clients,
    realms: repos.realms,
    accounts: repos.accounts,
    audit,
    secrets,
    clock,
    transact,
    publicUrl: config.publicUrl,
  });

  // administration of realms
  const realmSettings = createRealmSettingsService({
    realms: repos.realms,
    secrets,
    clock,
    transact,
    audit,
    isDefaultClientCandidate: clients.isDefaultCandidate,
  });
  const realms = createRealmsService({
    realms: repos.realms,
    accounts: repos.accounts,
    perm,
    settings: realmSettings,
    // Realm deletion: every area's rows of the realm, in one transaction, dependants first.
    // A new repository with realm-scoped rows adds its deleteAllInRealm here.
    contents: [
      repos.oauthCodes.deleteAllInRealm,
      repos.itShadowLinks.deleteAllInRealm,
      repos.oauthDeviceCodes.deleteAllInRealm,
      repos.oauthConsents.deleteAllInRealm,
      repos.oauthRefreshTokens.deleteAllInRealm,
      repos.oauthFamilies.deleteAllInRealm,
      repos.oauthRevokedTokens.deleteAllInRealm,
      repos.sessions.deleteAllInRealm,
      repos.otp.deleteAllInRealm,
      repos.me.deleteAllInRealm,
      repos.codes.deleteAllInRealm,
      repos.mailLinks.deleteAllInRealm,
      repos.throttle.deleteAllInRealm,
      repos.outbox.deleteAllInRealm,
      repos.aliLiving.deleteAllInRealm,
      repos.serviceAccounts.deleteAllInRealm,
      repos.roles.deleteAllInRealm,
      repos.oauthKeys.deleteAllInRealm,
      repos.pki.deleteAllInRealm,
      repos.clients.deleteAllInRealm,
      repos.accounts.deleteAllInRealm,
    ],
    onCreated: [clients.createDefault],
    clock,
    transact,
    audit,
  });
  const realmBranding = createRealmBrandingService({
    realms: repos.realms,
    clock,
    transact,
    audit,
    mail: { notify, globalSmtp: Boolean(i.notifyConfig.smtpUrl), text: (locale, key, vars) => t(resolveLocale(locale), `domains.${key}`, vars) },
  });
  const realmTransfer = createRealmTransferService({
    serviceProfiles: {
      list: repos.serviceAccounts.listServiceProfiles,
      save: (key, profile, now, trx) =>
        repos.serviceAccounts
          .saveServiceProfile(key, { description: profile.description }, now, trx)
          .then(() => repos.serviceAccounts.saveServiceGrants(key, profile.grants, now, trx)),
    },
    realms: repos.realms,
    settings: realmSettings,
    onImported: [clients.ensureDefault],
    accounts: repos.accounts,
    roles: repos.roles,
    perm,
    secrets,
    clock,
    transact,
    audit,
  });

  // the realm's accounts as administrators see them: service accounts, person list, one person,
  // bulk, CSV import and export, refresh from an IT backend (issue 11, issue 14)
  const directory = createDirectory({ repos, audit, perm, oauthRevocation, realmPolicy, aliLiving, itFederation, clock, transact });

  // the OAuth 2.0 / OpenID Connect provider (issue 12): keys, authorization, tokens, records
  const oauth = createOAuthProvider({ config, repos, stores, secrets, clock, transact, audit, sessions, throttle, clients, oauthRevocation });

  // the device CA (issue 13): CAs, managed keys, THE issuance service, revocation, CRLs, OCSP
  const deviceCa = createDeviceCa({ config, repos, secrets, clock, transact, audit, notify, settingsOf: realmPolicy.settingsOf, log: i.log });

  // the dashboard: figures from the audit trail, and this process's own metrics
  const dashboard = createDashboardService({ audit: repos.audit, perm, clock });
  const monitor = createMonitorService({ window: i.requestWindow, probes: i.probes, queue: bigdata.status, backends: itFederation.backends, perm, clock });

  return {
    aliLiving,
    itFederation,
    audit,
    bigdata,
    auditReads,
    dashboard,
    monitor,
    notify,
    outbox,
    realmPolicy,
    notices,
    codes,
    mailLinks,
    captcha,
    perm,
    roles,
    sessions,
    throttle,
    reauth,
    otp,
    login,
    codeSignIn,
    registration,
    recovery,
    ftoken,
    upstream,
    me,
    binding,
    realmSettings,
    realms,
    realmBranding,
    realmTransfer,
    ...directory,
    clients,
    ...oauth,
    ...deviceCa,
  };
}

export type Services = ReturnType<typeof createServices>;
