/**
 * The legacy `*.do` calls of SPEC §7, dispatched on `todo`. They carry the token in the body
 * (`auth` / `token`), so they are public routes that authenticate that token themselves.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionService } from '../auth/sessions.service.js';
import { assertThat } from '../platform/errors.js';
import { failEnvelope, okEnvelope } from '../platform/http.js';

const userDoBody = z.object({ todo: z.literal('GetIOTUserName'), userid: z.string().max(64).optional(), auth: z.string().max(256) });
const newauthDoBody = z.object({ todo: z.literal('GetUserInfoByToken'), token: z.string().max(256) });

export function registerLegacyRoutes(app: FastifyInstance, deps: { sessions: SessionService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/users/user.do',
    {
      config: { access: 'public' },
      schema: {
        tags: ['legacy'],
        summary: 'GetIOTUserName: the user name shown in the top bar',
        body: userDoBody,
        response: { 200: okEnvelope(z.object({ userName: z.string() })).extend({ userName: z.string() }), '4xx': failEnvelope, '5xx': failEnvelope },
      },
    },
    async (req, reply) => {
      const found = await deps.sessions.authenticate(req.body.auth);
      assertThat(found, 'UNAUTHORIZED');
      // The cookie's userid must be the token's own account: no reading other users' names.
      assertThat(!req.body.userid || req.body.userid === found.account.id, 'FORBIDDEN');
      const userName = found.account.username;
      // SPEC §7: "result ok and userName" — userName sits beside the envelope's data too.
      return reply.send({ result: 'ok', code: 0, data: { userName }, userName });
    },
  );

  r.post(
    '/api/users/newauth.do',
    {
      config: { access: 'public' },
      schema: {
        tags: ['legacy'],
        summary: 'GetUserInfoByToken: the account id behind a token',
        body: newauthDoBody,
        response: { 200: okEnvelope(z.object({ userID: z.string() })).extend({ userID: z.string() }), '4xx': failEnvelope, '5xx': failEnvelope },
      },
    },
    async (req, reply) => {
      const found = await deps.sessions.authenticate(req.body.token);
      assertThat(found, 'UNAUTHORIZED');
      return reply.send({ result: 'ok', code: 0, data: { userID: found.account.id }, userID: found.account.id });
    },
  );
}
