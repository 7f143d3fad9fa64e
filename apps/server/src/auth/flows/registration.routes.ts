/**
 * Public registration and recovery (issue 3; SPEC §2 login sub-forms): register by email or
 * SMS code, activate, retrieve by email link or SMS code, reset with the mail code.
 * HTTP only; rules live in services.
 */
import {
  acceptedResult,
  activateBody,
  activateResult,
  registerEmailBody,
  registerResult,
  registerSmsBody,
  resendActivationBody,
  resendActivationPath,
  resetBody,
  retrieveEmailBody,
  retrieveSmsBody,
} from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http.js';
import { metaOf, realmOf } from './http.js';
import type { RecoveryService } from './recovery.service.js';
import type { RegistrationService } from './registration.service.js';

const tags = ['auth'];

export function registerRegistrationRoutes(app: FastifyInstance, s: { registration: RegistrationService; recovery: RecoveryService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/users/auth/register/email',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "Register with email and password after a captcha; with the realm's needActive an activation mail (link valid 24 h) is sent and sign-in answers 5007 until it is followed; 1205 if the address or name is taken",
        body: registerEmailBody,
        response: responses(registerResult),
      },
    },
    async (req) => ok(await s.registration.registerByEmail(realmOf(req.body), req.body, metaOf(req, req.body.lang))),
  );

  r.post(
    '/api/users/auth/register/sms',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Register with a mobile number, its SMS code (purpose register) and a password; 1205 if the number or name is taken',
        body: registerSmsBody,
        response: responses(registerResult),
      },
    },
    async (req) => ok(await s.registration.registerBySms(realmOf(req.body), req.body, metaOf(req))),
  );

  r.post(
    resendActivationPath,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Mail a new activation link (valid 24 h) for an email registration not yet activated, after a captcha; the answer is the same whether or not such an account exists; one mail a minute and daily caps per address and IP',
        body: resendActivationBody,
        response: responses(acceptedResult),
      },
    },
    async (req) => ok(await s.registration.resendActivation(realmOf(req.body), req.body, metaOf(req, req.body.lang))),
  );

  r.post(
    '/api/users/auth/activate',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Activate an email registration with the 24-character code from the activation link (register-result screen)',
        body: activateBody,
        response: responses(activateResult),
      },
    },
    async (req) => ok(await s.registration.activate(realmOf(req.body), req.body.code, metaOf(req))),
  );

  r.post(
    '/api/users/auth/retrieve/email',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Mail a password reset link (24-character code, valid 1 hour) after a captcha; the answer is the same for unknown addresses',
        body: retrieveEmailBody,
        response: responses(acceptedResult),
      },
    },
    async (req) => ok(await s.recovery.retrieveByEmail(realmOf(req.body), req.body, metaOf(req, req.body.lang))),
  );

  r.post(
    '/api/users/auth/retrieve/sms',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Set a new password with an SMS code (purpose retrieve); ends every session of the account and sends the owner a security notice',
        body: retrieveSmsBody,
        response: responses(acceptedResult),
      },
    },
    async (req) => ok(await s.recovery.retrieveBySms(realmOf(req.body), req.body, metaOf(req))),
  );

  r.post(
    '/api/users/auth/reset',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Set a new password with the 24-character code of a reset mail (link or pasted); ends every session of the account, signs nobody in, sends the owner a security notice',
        body: resetBody,
        response: responses(acceptedResult),
      },
    },
    async (req) => ok(await s.recovery.resetByMailCode(realmOf(req.body), req.body, metaOf(req))),
  );
}
