/** One-time password on account/security (SPEC §3 "Security", §4). HTTP only; rules in otp.service.ts. */
import { otpDisableBody, otpEnableBody, otpEnableResult, otpSetupBody, otpSetupResult, otpStatus } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, ok, responses } from '../platform/http.js';
import { requestLocale } from '../platform/i18n.js';
import type { OtpService } from './otp.service.js';

const tags = ['account'];
const noStore = { 'cache-control': 'no-store' };

export function registerOtpRoutes(app: FastifyInstance, deps: { otp: OtpService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/users/account/otp',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'Whether one-time passwords are on, a setup is waiting, and how many recovery codes are left', response: responses(otpStatus) },
    },
    async (req) => ok(await deps.otp.status(authOf(req).account)),
  );

  r.post(
    '/api/users/account/otp/setup',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'Start turning OTP on: after the current password (1010, throttled), a new 160-bit secret and its otpauth:// URI for the QR code; valid 10 minutes. 1009 if OTP is already on',
        body: otpSetupBody,
        response: responses(otpSetupResult),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(await deps.otp.setup(authOf(req).account, { password: req.body.password, ip: req.ip }));
    },
  );

  r.post(
    '/api/users/account/otp/enable',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'Turn OTP on with two consecutive codes of the new secret (first and second verify code); answers the ten recovery codes, shown only now. 1502 wrong codes, 1009 no setup waiting',
        body: otpEnableBody,
        response: responses(otpEnableResult),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(await deps.otp.enable(authOf(req).account, req.body, { ip: req.ip, locale: requestLocale(req) }));
    },
  );

  r.post(
    '/api/users/account/otp/disable',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'Turn OTP off with two consecutive unused codes, or with the password and a recovery code. 1502 wrong (throttled), 1503 nothing given, 1009 OTP is off',
        body: otpDisableBody,
        response: responses(otpStatus.pick({ enabled: true })),
      },
    },
    async (req) => ok(await deps.otp.disable(authOf(req).account, req.body, { ip: req.ip, locale: requestLocale(req) })),
  );
}
