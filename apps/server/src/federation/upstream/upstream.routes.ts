/**
 * Sign-in through a realm's upstream OpenID provider (issue 14), and the links administrators
 * see and remove. HTTP only: the rules are in upstream.service.ts. start and callback are
 * browser navigations, so every outcome is a 303 — to the upstream, or back to the console's
 * sign-in page (with a hand-over ticket, or with `upstream_error`, a catalogue code).
 */
import { loginResult } from '@umbo/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requestMeta } from '../../audit/request-meta.js';
import { metaOf, signedIn } from '../../auth/flows/http.js';
import { ApiError } from '../../platform/errors.js';
import { authOf, ok, responses } from '../../platform/http.js';
import type { Logger } from '../../platform/logger.js';
import { UPSTREAM_DEFAULTS } from './defaults.js';
import {
  federatedLinkDeleteParams,
  federatedLinkParams,
  federatedLinks,
  upstreamButton,
  upstreamCallbackQuery,
  upstreamExchangeBody,
  upstreamRealmParams,
  upstreamStartQuery,
} from './upstream.schemas.js';
import type { UpstreamService } from './upstream.service.js';

const tags = ['upstream sign-in'];

export interface UpstreamRouteDeps {
  upstream: UpstreamService;
  secureCookies: boolean;
  log: Logger;
}

/** The transaction cookie is sent back only to this realm's callback. */
const cookiePath = (realmId: string) => `/api/federation/${encodeURIComponent(realmId)}/oidc`;

function see(reply: FastifyReply, location: string) {
  return reply.status(303).header('location', location).header('cache-control', 'no-store').send();
}

export function registerUpstreamRoutes(app: FastifyInstance, d: UpstreamRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/federation/:realmId/oidc/button',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The "Sign in with …" button of the realm (null when its OpenID sign-in is off)',
        params: upstreamRealmParams,
        response: responses(upstreamButton),
      },
    },
    async (req) => ok({ button: await d.upstream.button(req.params.realmId) }),
  );

  r.get(
    '/api/federation/:realmId/oidc/start',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "303 to the realm's upstream OpenID provider (code flow, PKCE S256, state, nonce); on failure 303 back to the sign-in page with upstream_error",
        params: upstreamRealmParams,
        querystring: upstreamStartQuery,
      },
    },
    async (req, reply) => {
      const { realmId } = req.params;
      try {
        const started = await d.upstream.start(realmId, req.query);
        reply.setCookie(UPSTREAM_DEFAULTS.cookieName, started.cookie, {
          path: cookiePath(realmId),
          httpOnly: true,
          // Lax: sent on the upstream's top-level redirect back, never on a cross-site subrequest
          sameSite: 'lax',
          secure: d.secureCookies,
          maxAge: UPSTREAM_DEFAULTS.transactionTtlMs / 1000,
        });
        return see(reply, started.location);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        d.log.warn({ realmId, code: err.def.code, reason: err.errData?.reason }, 'upstream sign-in could not start');
        const q = new URLSearchParams({ realm_id: realmId, upstream_error: String(err.def.code), ...req.query });
        return see(reply, `/user/loginSSO?${q.toString()}`);
      }
    },
  );

  r.get(
    '/api/federation/:realmId/oidc/callback',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "The upstream's redirect back: validates it (openid-client), links the identity, 303 to the sign-in page with a single-use hand-over ticket",
        params: upstreamRealmParams,
        querystring: upstreamCallbackQuery,
      },
    },
    async (req, reply) => {
      const { realmId } = req.params;
      const out = await d.upstream.callback(realmId, new URLSearchParams(req.query), req.cookies[UPSTREAM_DEFAULTS.cookieName]);
      // the transaction is over either way
      reply.clearCookie(UPSTREAM_DEFAULTS.cookieName, { path: cookiePath(realmId) });
      if (out.error) d.log.warn({ realmId, code: out.error.def.code, reason: out.error.errData?.reason }, 'upstream sign-in refused');
      return see(reply, out.location);
    },
  );

  r.post(
    '/api/federation/oidc/exchange',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'Trade the hand-over ticket of the callback (single use, 2 minutes) for the same 7-day session as the password form. An account with a one-time password: 1503 without `otp` (the ticket stays usable), 1502 for a wrong one (counted on the account lock; the third spends the ticket)',
        body: upstreamExchangeBody,
        response: responses(loginResult),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(signedIn(reply, d.secureCookies, await d.upstream.exchange(req.body.ticket, req.body.otp, metaOf(req))));
    },
  );

  r.get(
    '/api/users/realms/:realmId/accounts/:id/federated',
    {
      config: { access: 'person.get', realm: 'params.realmId' },
      schema: {
        tags,
        summary: "The person account's links to upstream OpenID identities; 1207 when it is not a person of the realm",
        params: federatedLinkParams,
        response: responses(federatedLinks),
      },
    },
    async (req) => ok(await d.upstream.links(req.params.realmId, req.params.id)),
  );

  r.delete(
    '/api/users/realms/:realmId/accounts/:id/federated/:linkId',
    {
      config: { access: 'person.edit', realm: 'params.realmId' },
      schema: {
        tags,
        summary:
          'Remove a link: that upstream identity no longer signs in as this account (its next sign-in makes a new account); audited as account.federated_unlink; 1004 for no such link',
        params: federatedLinkDeleteParams,
        response: responses(z.object({ removed: z.literal(true) })),
      },
    },
    async (req) => {
      await d.upstream.unlink(req.params.realmId, req.params.id, req.params.linkId, {
        principal: authOf(req).principal,
        actor: actorOf(req),
        request: requestMeta(req),
      });
      return ok({ removed: true as const });
    },
  );
}
