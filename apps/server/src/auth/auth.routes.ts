/** Console sign-in and sign-out (SPEC §7 /auth/login, /auth/logout). HTTP only; rules live in services. */
import { LIMITS, loginBody, loginResult } from '@umbo/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, ok, responses } from '../platform/http.js';
import { MASTER_REALM } from '../perm/perm.service.js';
import type { LoginService } from './login.service.js';
import type { SessionService } from './sessions.service.js';

export interface AuthRouteDeps {
  login: LoginService;
  sessions: SessionService;
  secureCookies: boolean;
  /** what else a console sign-out ends in this browser (the OAuth provider's SSO cookie, passed down from composition) */
  onLogout?: (reply: FastifyReply, realmId: string) => void;
}

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/users/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          'Sign in with user name (service accounts: owner/subname) and password, plus `otp` when the account has one-time passwords on. 1010 for any wrong or unknown credential, with errData {locked, retryAfter} while throttled (A-31); 1503 OTP empty and 1502 OTP wrong after a right password, with errData {otpTicket}: sent instead of a captcha with the OTP (5 min, single use, 3 wrong OTPs); 1011 disabled and 5007 not activated only after the password was right',
        body: loginBody,
        response: responses(loginResult),
      },
    },
    async (req, reply) => {
      const { account, issued } = await deps.login.login({
        realmId: req.body.realm_id || MASTER_REALM,
        username: req.body.username,
        password: req.body.password,
        otp: req.body.otp,
        captcha: req.body.captcha,
        serialNo: req.body.serialNo,
        otpTicket: req.body.otpTicket,
        country: req.body.country,
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? '',
      });
      // SPEC §7: user.do reads the account id from the `userid` cookie. It is an id, not a secret.
      reply.setCookie('userid', account.id, {
        path: '/',
        sameSite: 'lax',
        secure: deps.secureCookies,
        maxAge: LIMITS.tokenLifetimeMs / 1000,
      });
      return ok({
        token: issued.token,
        expiresAt: issued.session.expires_at,
        userId: account.id,
        realmId: account.realm_id,
        forcePassword: Boolean(account.force_password),
      });
    },
  );

  r.post(
    '/api/users/auth/logout',
    {
      config: { access: 'session', allowWhilePasswordChangeRequired: true },
      schema: { tags: ['auth'], summary: 'End this session', response: responses(z.object({})) },
    },
    async (req, reply) => {
      const { session, account } = authOf(req);
      await deps.sessions.revoke(session);
      reply.clearCookie('userid', { path: '/' });
      deps.onLogout?.(reply, account.realm_id);
      return ok({});
    },
  );
}
