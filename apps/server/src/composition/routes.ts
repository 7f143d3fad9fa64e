/**
 * Step 3 of the composition root: every area's routes, on an app whose guard is in place
 * (app.ts). Routes get the services they call, never a repository.
 */
import type { FastifyInstance } from 'fastify';
import { registerAuthRoutes } from '../auth/auth.routes.js';
import { registerRegistrationRoutes } from '../auth/flows/registration.routes.js';
import { registerSignInFlowRoutes } from '../auth/flows/sign-in.routes.js';
import { registerLegacyRoutes } from '../legacy/legacy.routes.js';
import { registerBindingRoutes } from '../me/binding.routes.js';
import { registerMeRoutes } from '../me/me.routes.js';
import { registerOutboxRoutes } from '../notify/outbox.routes.js';
import { registerOtpRoutes } from '../otp/otp.routes.js';
import { registerPermRoutes } from '../perm/perm.routes.js';
import { registerRealmSettingsRoutes } from '../realms/realm-settings.routes.js';
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
  registerRealmSettingsRoutes(app, { settings: s.realmSettings });
  registerLegacyRoutes(app, { sessions: s.sessions });
}
