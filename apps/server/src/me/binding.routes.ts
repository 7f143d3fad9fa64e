/** Binding phone and email on the account's settings page (SPEC §2 "binding"). HTTP only. */
import { bindBody, bindCodeBody, bindCodeResult, bindingResult, unbindBody } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, ok, responses } from '../platform/http.js';
import { requestLocale } from '../platform/i18n.js';
import { resolveLocale } from '@umbo/contracts';
import type { BindingService } from './binding.service.js';

const tags = ['account'];

export function registerBindingRoutes(app: FastifyInstance, deps: { binding: BindingService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/users/account/binding/code',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'Send a 6-digit code to a NEW email address or mobile number, after the current password (1010, throttled). 1205 if another account has it; 1006 resend too soon or daily cap',
        body: bindCodeBody,
        response: responses(bindCodeResult),
      },
    },
    async (req) => {
      const locale = req.body.lang ? resolveLocale(req.body.lang) : requestLocale(req);
      return ok(await deps.binding.sendCode(authOf(req).account, req.body, { ip: req.ip, locale }));
    },
  );

  r.post(
    '/api/users/account/binding',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'Bind the address with the code it received (4004 expired, 4006/5002 wrong, 4007 used up or for another transaction); 1205 if taken meanwhile. A replaced address gets a security notice',
        body: bindBody,
        response: responses(bindingResult),
      },
    },
    async (req) => ok(await deps.binding.bind(authOf(req).account, req.body, { ip: req.ip, locale: requestLocale(req) })),
  );

  r.delete(
    '/api/users/account/binding',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Remove the email or phone from the account, after the current password; the removed address gets a security notice',
        body: unbindBody,
        response: responses(bindingResult),
      },
    },
    async (req) => ok(await deps.binding.unbind(authOf(req).account, req.body, { ip: req.ip, locale: requestLocale(req) })),
  );
}
