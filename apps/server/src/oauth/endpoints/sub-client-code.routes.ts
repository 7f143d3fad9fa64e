/**
 * POST /api/users/oauth/sub-client-code (SPEC §3 allowAuthCode): a public route, because the
 * caller proves itself with the PARENT client's user access token (body `token` or
 * `Authorization: Bearer`), not a console session. Answers the sub client's code and the URL
 * (its registered redirect URI) the browser goes to; the console page
 * /newauth/user_redirect_authcode_by_users_authcode uses it (apps/web features/newauth).
 */
import { subClientCodeBody, subClientCodeResult } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken } from '../../auth/guard.js';
import { fail } from '../../platform/errors.js';
import { ok, responses } from '../../platform/http.js';
import type { SubClientCodeService } from '../sub-client-code.service.js';
import { NO_STORE } from './oauth-http.js';

export function registerSubClientCodeRoutes(app: FastifyInstance, deps: { subClientCodes: SubClientCodeService }): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/users/oauth/sub-client-code',
    {
      config: { access: 'public' },
      schema: {
        tags: ['oauth'],
        summary: "A sub client's authorization code for the user of the parent client's access token (allowAuthCode)",
        body: subClientCodeBody,
        response: responses(subClientCodeResult),
      },
    },
    async (req, reply) => {
      const b = req.body;
      // the body's token first: a console page calling this carries the console's own bearer token too
      const token = b.token ?? bearerToken(req);
      if (!token) throw fail('UNAUTHORIZED');
      const issued = await deps.subClientCodes.issue(
        {
          token,
          clientId: b.client_id,
          redirectUri: b.redirect_uri,
          state: b.state,
          codeChallenge: b.code_challenge,
          codeChallengeMethod: b.code_challenge_method,
        },
        { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') },
      );
      return reply.headers(NO_STORE).send(ok(issued));
    },
  );
}
