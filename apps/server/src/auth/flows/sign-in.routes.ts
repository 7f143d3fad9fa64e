/**
 * Public sign-in by codes (issue 3): captcha, the realm's enabled methods, SMS and email
 * codes, sign-in with them, and the ftoken hand-over. HTTP only; rules live in services.
 */
import {
  authOptionsQuery,
  authOptionsResult,
  captchaQuery,
  captchaResult,
  codeIssuedResult,
  emailCodeBody,
  emailLoginBody,
  ftokenLoginBody,
  ftokenResult,
  loginResult,
  smsCodeBody,
  smsLoginBody,
} from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CaptchaService } from '../../captcha/captcha.service.js';
import { itBackendOf } from '../../realms/realm-settings.backend.js';
import { authOf, ok, responses } from '../../platform/http.js';
import type { RealmPolicy } from '../../realms/realm-policy.js';
import type { CodeSignInService } from './code-sign-in.service.js';
import type { FTokenService } from './ftoken.service.js';
import { metaOf, realmOf, signedIn } from './http.js';

const tags = ['auth'];

export interface SignInFlowRouteDeps {
  policy: RealmPolicy;
  captcha: CaptchaService;
  codeSignIn: CodeSignInService;
  ftoken: FTokenService;
  /** the `userid` cookie is Secure when PUBLIC_URL is https */
  secureCookies: boolean;
}

export function registerSignInFlowRoutes(app: FastifyInstance, s: SignInFlowRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { secureCookies } = s;

  r.get(
    '/api/users/auth/options',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "The realm's enabled sign-in, registration and recovery methods, login regions and captcha policy (what the sign-in screens offer); registUrl, the backend's registration page, when the realm's accounts live in an IT-interface backend and it sets backend_regist_url",
        querystring: authOptionsQuery,
        response: responses(authOptionsResult),
      },
    },
    async (req) => {
      const realmId = realmOf(req.query);
      const st = await s.policy.settingsOf(realmId);
      return ok({
        realmId,
        loginMethods: st.backend_support_login_method,
        registMethods: st.backend_support_regist_method,
        findBackMethods: st.backend_support_find_back_method,
        loginRegions: st.backend_support_login_regions,
        captchaPolicy: st.captchaPolicy,
        needActive: st.needActive,
        logo: st.logo_img_url,
        // issue 14: registration in a realm behind an IT backend happens at the backend
        ...(itBackendOf(st) && st.backend_regist_url ? { registUrl: st.backend_regist_url } : {}),
      });
    },
  );

  r.get(
    '/api/users/auth/captcha',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'A new image captcha (PNG, single use, expires in 2 minutes); answer it with its serialNo',
        querystring: captchaQuery,
        response: responses(captchaResult),
      },
    },
    async (req, reply) => {
      const c = await s.captcha.issue(realmOf(req.query), req.ip);
      reply.header('cache-control', 'no-store');
      return ok({ serialNo: c.serialNo, image: `data:image/png;base64,${c.png.toString('base64')}`, expiresAt: c.expiresAt });
    },
  );

  r.post(
    '/api/users/auth/sms-code',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Send a 6-digit SMS code (login, register or retrieve) after a captcha; the answer is the same whether or not an account has the number, except 1205 when registering',
        body: smsCodeBody,
        response: responses(codeIssuedResult),
      },
    },
    async (req) => {
      const issued = await s.codeSignIn.issueSmsCode(realmOf(req.body), req.body, metaOf(req, req.body.lang));
      return ok({ serialNo: issued.serialNo, expiresAt: issued.expiresAt, resendAt: issued.resendAt });
    },
  );

  r.post(
    '/api/users/auth/email-code',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Send a 6-digit email code (login, register or retrieve) after a captcha; same answer for unknown addresses, except 1205 when registering',
        body: emailCodeBody,
        response: responses(codeIssuedResult),
      },
    },
    async (req) => {
      const issued = await s.codeSignIn.issueEmailCode(realmOf(req.body), req.body, metaOf(req, req.body.lang));
      return ok({ serialNo: issued.serialNo, expiresAt: issued.expiresAt, resendAt: issued.resendAt });
    },
  );

  r.post(
    '/api/users/auth/login/sms',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Sign in with mobile number and SMS code: the same 7-day session token as the password form',
        body: smsLoginBody,
        response: responses(loginResult),
      },
    },
    async (req, reply) => ok(signedIn(reply, secureCookies, await s.codeSignIn.loginBySms(realmOf(req.body), req.body, metaOf(req)))),
  );

  r.post(
    '/api/users/auth/login/email',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Sign in with email address and email code: the same 7-day session token as the password form',
        body: emailLoginBody,
        response: responses(loginResult),
      },
    },
    async (req, reply) => ok(signedIn(reply, secureCookies, await s.codeSignIn.loginByEmail(realmOf(req.body), req.body, metaOf(req)))),
  );

  r.post(
    '/api/users/auth/ftoken',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'Issue a short-lived (2 minutes), single-use sign-in token for this account, to open the console at /loginByFToken; it dies with the session that asked for it',
        security: [{ bearer: [] }],
        response: responses(ftokenResult),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const auth = authOf(req);
      return ok(await s.ftoken.issue(auth.account, auth.session));
    },
  );

  r.post(
    '/api/users/auth/login/ftoken',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Exchange a sign-in token from /api/users/auth/ftoken for a console session (once)',
        body: ftokenLoginBody,
        response: responses(loginResult),
      },
    },
    async (req, reply) => ok(signedIn(reply, secureCookies, await s.ftoken.exchange(req.body.ftoken, metaOf(req)))),
  );
}
