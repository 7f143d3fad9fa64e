/**
 * /api/users/oauth/interaction: the console's side of an OAuth sign-in (oauth-interaction.ts in
 * contracts). HTTP only; rules in authorize/interaction.service.ts. The calls that move a
 * sign-in on are made with the console's bearer token (access 'session'); the one that sets
 * the browser SSO cookie is the sign-in step.
 */
import { interactionCallbackBody, interactionConsentBody, interactionInfo, interactionLoginBody, interactionNext, interactionQuery } from '@umbo/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestMeta } from '../../audit/request-meta.js';
import { authOf, ok, responses } from '../../platform/http.js';
import type { InteractionResult, InteractionService } from '../authorize/interaction.service.js';
import { setSsoCookie } from '../authorize/sso-cookie.js';

const tags = ['oauth'];

export function registerInteractionRoutes(app: FastifyInstance, deps: { interaction: InteractionService; now(): number; secureCookies: boolean }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { interaction } = deps;
  const caller = (req: FastifyRequest) => {
    const auth = authOf(req);
    return { session: auth.session, account: auth.account, request: requestMeta(req) };
  };
  const answer = (reply: FastifyReply, result: InteractionResult) => {
    reply.header('cache-control', 'no-store');
    if (result.sso) setSsoCookie(reply, { ...result.sso, now: deps.now(), secure: deps.secureCookies });
    return ok(result.answer);
  };

  r.get(
    '/api/users/oauth/interaction',
    {
      config: { access: 'public' },
      schema: {
        tags,
        querystring: interactionQuery,
        response: responses(interactionInfo),
        summary: 'What a pending OAuth sign-in asks: client name, login tips, login/regist URLs, scopes; 1080 when the challenge is invalid or expired',
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await interaction.info(req.query.challenge));
    },
  );

  r.post(
    '/api/users/oauth/interaction/login',
    {
      config: { access: 'session' },
      schema: {
        tags,
        body: interactionLoginBody,
        response: responses(interactionNext),
        summary:
          'The signed-in console session proves the user of a pending OAuth sign-in: sets the SSO cookie and answers consent or the redirect with a code. 1081 when prompt=login/max_age needs a newer sign-in, 1082 when the account is of another realm',
      },
    },
    async (req, reply) => answer(reply, await interaction.login(req.body.challenge, caller(req))),
  );

  r.post(
    '/api/users/oauth/interaction/consent',
    {
      config: { access: 'session' },
      schema: {
        tags,
        body: interactionConsentBody,
        response: responses(interactionNext),
        summary: 'Approve (recorded as an OAuth record) or refuse (access_denied to the client) a consent challenge; answers the redirect',
      },
    },
    async (req, reply) => answer(reply, await interaction.consent(req.body.challenge, req.body.approve, caller(req))),
  );

  r.post(
    '/api/users/oauth/interaction/callback',
    {
      config: { access: 'session' },
      schema: {
        tags,
        body: interactionCallbackBody,
        response: responses(interactionNext),
        summary:
          'SPEC §2 callback_uri links: a code for callback_uri only when it is exactly a registered redirect URI of the (confidential) client; 1083 otherwise, never a redirect',
      },
    },
    async (req, reply) => answer(reply, await interaction.callback(req.body, caller(req))),
  );
}
