/**
 * Step 3 of the composition root: every area's routes, on an app whose guard is in place
 * (app.ts). Routes get the services they call, never a repository.
 */
import type { FastifyInstance } from 'fastify';
import { registerAuditRoutes } from '../audit/audit.routes.js';
import { registerDashboardRoutes } from '../dashboard/dashboard.routes.js';
import { registerAuthRoutes } from '../auth/auth.routes.js';
import { clearSsoCookie } from '../oauth/authorize/sso-cookie.js';
import { registerRegistrationRoutes } from '../auth/flows/registration.routes.js';
import { registerSignInFlowRoutes } from '../auth/flows/sign-in.routes.js';
import { registerLegacyRoutes } from '../legacy/legacy.routes.js';
import { registerBindingRoutes } from '../me/binding.routes.js';
import { registerMeRoutes } from '../me/me.routes.js';
import { registerOutboxRoutes } from '../notify/outbox.routes.js';
import { registerOtpRoutes } from '../otp/otp.routes.js';
import { registerPermRoutes } from '../perm/perm.routes.js';
import { registerRolesRoutes } from '../perm/roles.routes.js';
import { registerServiceAccountRoutes } from '../directory/service-accounts.routes.js';
import { registerPersonCsvRoutes } from '../directory/person-csv.routes.js';
import { registerPersonRoutes } from '../directory/person.routes.js';
import { registerPersonRefreshRoutes } from '../federation/it/refresh.routes.js';
import { registerRealmSettingsRoutes } from '../realms/realm-settings.routes.js';
import { registerRealmRoutes } from '../realms/realms.routes.js';
import { registerRealmBrandingRoutes } from '../realms/realm-branding.routes.js';
import { registerRealmTransferRoutes } from '../realms/realm-transfer.routes.js';
import { registerClientRoutes } from '../clients/clients.routes.js';
import { registerToolRoutes } from '../pki/tools/tools.routes.js';
import { registerPkiRoutes } from '../pki/pki.routes.js';
import { registerPkiRealmRoutes } from '../pki/pki.realm.routes.js';
import { registerPkiPublicRoutes } from '../pki/pki.public.routes.js';
import { registerOcspRoutes } from '../pki/ocsp/ocsp.routes.js';
import { registerUpstreamRoutes } from '../federation/upstream/upstream.routes.js';
import { registerRecordRoutes } from '../oauth/records.routes.js';
import { registerDiscoveryRoutes } from '../oauth/endpoints/discovery.routes.js';
import { registerOAuthKeyRoutes } from '../oauth/keys/keys.routes.js';
import { registerDeviceRoutes } from '../oauth/device/device.routes.js';
import { registerAuthorizeRoutes } from '../oauth/endpoints/authorize.routes.js';
import { registerInteractionRoutes } from '../oauth/endpoints/interaction.routes.js';
import { registerIntrospectionRoutes } from '../oauth/endpoints/introspection.routes.js';
import { registerRevocationRoutes } from '../oauth/endpoints/revocation.routes.js';
import { registerSubClientCodeRoutes } from '../oauth/endpoints/sub-client-code.routes.js';
import { registerTokenRoutes } from '../oauth/endpoints/token.routes.js';
import { registerDeviceAuthorizationRoutes } from '../oauth/endpoints/device-authorization.routes.js';
import { registerUserinfoRoutes } from '../oauth/endpoints/userinfo.routes.js';
import { ANY_REALM, type Principal } from '../perm/perm.service.js';
import type { AppContext } from './context.js';

export function registerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const s = ctx.services;
  // The `userid` cookie of a sign-in is Secure when the console is served over https.
  const secureCookies = ctx.config.publicUrl.startsWith('https:');

  registerAuthRoutes(app, {
    login: s.login,
    sessions: s.sessions,
    secureCookies,
    // signing out of the console also drops the browser's SSO cookie of that realm's provider
    onLogout: (reply, realmId) => clearSsoCookie(reply, { realmId, secure: secureCookies }),
  });
  registerSignInFlowRoutes(app, { policy: s.realmPolicy, captcha: s.captcha, codeSignIn: s.codeSignIn, ftoken: s.ftoken, secureCookies });
  registerRegistrationRoutes(app, { registration: s.registration, recovery: s.recovery });
  registerOutboxRoutes(app, s.outbox);
  registerMeRoutes(app, { me: s.me });
  registerOtpRoutes(app, { otp: s.otp });
  registerBindingRoutes(app, { binding: s.binding });
  registerPermRoutes(app, { perm: s.perm });
  registerRolesRoutes(app, { roles: s.roles });
  registerServiceAccountRoutes(app, { services: s.serviceAccounts });
  registerPersonRoutes(app, { admin: s.personAdmin, list: s.personList, bulk: s.personBulk });
  registerPersonCsvRoutes(app, { list: s.personList, importer: s.personImport });
  registerPersonRefreshRoutes(app, { refresh: s.personRefresh });
  registerRealmSettingsRoutes(app, { settings: s.realmSettings });
  // '*' (every realm) in the audit and dashboard paths: a role reaching every realm that holds
  // audit.query there — decided by perm as the guard decides '*', not by a role's id (a service
  // account's roles carry their owner's ids with only its grants inside).
  const seesAllRealms = (auth: { principal: Principal }) => s.perm.allows(auth.principal, 'audit', 'query', ANY_REALM);
  registerAuditRoutes(app, { reads: s.auditReads, seesAllRealms });
  registerDashboardRoutes(app, { dashboard: s.dashboard, monitor: s.monitor, seesAllRealms });
  registerRealmRoutes(app, { realms: s.realms });
  registerRealmBrandingRoutes(app, { branding: s.realmBranding });
  // An export with its accounts is larger than an ordinary request.
  registerRealmTransferRoutes(app, { transfer: s.realmTransfer, importBodyLimit: 16 * ctx.config.bodyLimit });
  // the legacy calls accept this provider's access tokens too (issue 12); legacy sits below oauth
  registerLegacyRoutes(app, { sessions: s.sessions, oauthAccount: s.oauthTokens.accountOfToken });
  registerClientRoutes(app, { clients: s.clients });
  registerRecordRoutes(app, { records: s.oauthRecords });
  registerDiscoveryRoutes(app, { keys: s.oauthKeys });
  registerOAuthKeyRoutes(app, { keys: s.oauthKeys });
  registerDeviceRoutes(app, { device: s.oauthDevice });
  registerDeviceAuthorizationRoutes(app, { device: s.oauthDevice, clientAuth: s.oauthClientAuth, issuer: s.oauthKeys.issuer });
  registerAuthorizeRoutes(app, {
    authorize: s.oauthAuthorize,
    realmName: s.oauthAuthorize.realmName,
    // RP-Initiated Logout §2: a hint past its exp is still accepted; nothing else is relaxed
    verifyIdToken: (realmId, jwt) => s.oauthKeys.verify(realmId, jwt, { typ: 'JWT', allowExpired: true }),
    now: () => ctx.clock.now(),
    publicUrl: ctx.config.publicUrl,
    secureCookies,
  });
  registerInteractionRoutes(app, { interaction: s.oauthInteraction, now: () => ctx.clock.now(), secureCookies });
  // the provider's back channel (issue 12): token, userinfo, introspection, revocation; sub-client codes
  const issuer = s.oauthKeys.issuer;
  registerTokenRoutes(app, { grants: s.oauthTokens.grants, clientAuth: s.oauthClientAuth, events: s.oauthTokenEvents, clock: ctx.clock, issuer });
  registerUserinfoRoutes(app, { validateAccessToken: s.oauthTokens.validateAccessToken, realmExists: s.oauthKeys.realmExists });
  registerIntrospectionRoutes(app, {
    clientAuth: s.oauthClientAuth,
    validateAccessToken: s.oauthTokens.validateAccessToken,
    refreshTokens: ctx.repos.oauthRefreshTokens,
    accounts: ctx.repos.accounts,
    hashRefresh: s.oauthTokens.mint.hashRefresh,
    issuer,
    clock: ctx.clock,
  });
  registerRevocationRoutes(app, {
    clientAuth: s.oauthClientAuth,
    verify: s.oauthKeys.verify,
    refreshTokens: ctx.repos.oauthRefreshTokens,
    hashRefresh: s.oauthTokens.mint.hashRefresh,
    revocation: s.oauthTokens.revocation,
    events: s.oauthTokenEvents,
    issuer,
  });
  registerSubClientCodeRoutes(app, { subClientCodes: s.oauthSubClientCodes });
  registerToolRoutes(app, { now: () => ctx.clock.now() });
  // the device CA (issue 13): own account, realm administrators, public CA certificates and CRLs
  registerPkiRoutes(app, { ca: s.pkiCa, keys: s.pkiKeys, issue: s.pkiIssue, revoke: s.pkiRevoke, certs: s.pkiCerts });
  registerPkiRealmRoutes(app, { ca: s.pkiCa, revoke: s.pkiRevoke, certs: s.pkiCerts });
  registerPkiPublicRoutes(app, { ca: s.pkiCa, crl: s.pkiCrl });
  registerOcspRoutes(app, { ocsp: s.pkiOcsp });
  registerUpstreamRoutes(app, { upstream: s.upstream, secureCookies, log: ctx.log.child({ name: 'upstream' }) });
}
