/**
 * Step 3 of the composition root: every area's routes, on an app whose guard is in place
 * (app.ts). Routes get the services they call, never a repository.
 */
import type { FastifyInstance } from 'fastify';
import { registerAuditRoutes } from '../audit/audit.routes.js';
import { registerDashboardRoutes } from '../dashboard/dashboard.routes.js';
import { registerAuthRoutes } from '../auth/auth.routes.js';
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
import { registerRealmSettingsRoutes } from '../realms/realm-settings.routes.js';
import { registerRealmRoutes } from '../realms/realms.routes.js';
import { registerRealmBrandingRoutes } from '../realms/realm-branding.routes.js';
import { registerRealmTransferRoutes } from '../realms/realm-transfer.routes.js';
import { MASTER_REALM } from '../perm/perm.service.js';
import type { AppContext } from './context.js';

export function registerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const s = ctx.services;
  // The `userid` cookie of a sign-in is Secure when the console is served over https.
  const secureCookies = ctx.config.publicUrl.startsWith('https:');

  registerAuthRoutes(app, { login: s.login, sessions: s.sessions, secureCookies });
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
  registerRealmSettingsRoutes(app, { settings: s.realmSettings });
  // '*' (every realm) in the audit and dashboard paths: only `admin` bound in master, as the guard decides it too.
  const seesAllRealms = (auth: { principal: { roles: readonly { id: string; scopeRealmId: string }[] } }) =>
    auth.principal.roles.some((r) => r.id === 'admin' && r.scopeRealmId === MASTER_REALM);
  registerAuditRoutes(app, { reads: s.auditReads, seesAllRealms });
  registerDashboardRoutes(app, { dashboard: s.dashboard, monitor: s.monitor, seesAllRealms });
  registerRealmRoutes(app, { realms: s.realms });
  registerRealmBrandingRoutes(app, { branding: s.realmBranding });
  // An export with its accounts is larger than an ordinary request.
  registerRealmTransferRoutes(app, { transfer: s.realmTransfer, importBodyLimit: 16 * ctx.config.bodyLimit });
  registerLegacyRoutes(app, { sessions: s.sessions });
}
