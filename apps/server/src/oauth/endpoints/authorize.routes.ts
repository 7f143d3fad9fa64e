/**
 * HTTP of the authorization endpoint and RP-initiated logout: GET and POST (OIDC Core §3.1.2.1
 * "MUST support the use of the HTTP GET and POST methods"), answers as 303 (never 307: a POSTed
 * form is not forwarded, AS-15) or our own page. No CORS on these (AS-17): nothing here adds
 * Access-Control-* headers, and the global headers forbid framing (AS-16).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLocale } from '../../platform/i18n.js';
import type { AuthorizeService } from '../authorize/authorize.service.js';
import { clearSsoCookie, readSsoCookie } from '../authorize/sso-cookie.js';
import { handleAuthorize } from './authorize.js';
import { handleEndSession, handleEndSessionConfirm, type EndSessionDeps, type EndSessionOutcome } from './end-session.js';
import { sendErrorPage, sendLoggedOut, sendLogoutConfirmation } from './pages.js';

export interface AuthorizeRouteDeps {
  authorize: AuthorizeService;
  realmName(realmId: string): Promise<string | undefined>;
  verifyIdToken: EndSessionDeps['verifyIdToken'];
  now(): number;
  publicUrl: string;
  secureCookies: boolean;
}

const realmOf = (req: FastifyRequest) => (req.params as { realmId: string }).realmId;
/** The request's parameters: the query of a GET, the form of a POST (OIDC Core §3.1.2.1). */
const paramsOf = (req: FastifyRequest) => (req.method === 'POST' ? req.body : req.query);

function see(reply: FastifyReply, location: string) {
  return reply.status(303).header('location', location).header('cache-control', 'no-store').send();
}

export function registerAuthorizeRoutes(app: FastifyInstance, deps: AuthorizeRouteDeps) {
  const realmExists = async (realmId: string) => (await deps.realmName(realmId)) !== undefined;

  app.route({
    method: ['GET', 'POST'],
    url: '/realms/:realmId/oauth/authorize',
    config: { access: 'public' },
    schema: { hide: true },
    handler: async (req, reply) => {
      const outcome = await handleAuthorize(
        { realmId: realmOf(req), raw: paramsOf(req), ssoToken: readSsoCookie(req), now: deps.now() },
        { realmExists, authorize: deps.authorize },
      );
      if (outcome.kind === 'page') return sendErrorPage(reply, requestLocale(req), outcome.status, outcome.error, outcome.description);
      return see(reply, outcome.location);
    },
  });

  const endSessionDeps: EndSessionDeps = { realmName: deps.realmName, authorize: deps.authorize, verifyIdToken: deps.verifyIdToken };
  const answer = (req: FastifyRequest, reply: FastifyReply, outcome: EndSessionOutcome) => {
    const realmId = realmOf(req);
    const locale = requestLocale(req);
    if (outcome.kind === 'page') return sendErrorPage(reply, locale, outcome.status, outcome.error, outcome.description);
    if (outcome.kind === 'confirm') {
      return sendLogoutConfirmation(reply, locale, {
        realmName: outcome.realmName,
        action: `/realms/${encodeURIComponent(realmId)}/oauth/logout`,
        confirm: outcome.confirm,
        redirectAfter: outcome.redirectAfter,
        homeUrl: `${deps.publicUrl}/`,
      });
    }
    clearSsoCookie(reply, { realmId, secure: deps.secureCookies });
    return outcome.location ? see(reply, outcome.location) : sendLoggedOut(reply, locale);
  };

  app.route({
    method: ['GET', 'POST'],
    url: '/realms/:realmId/oauth/logout',
    config: { access: 'public' },
    schema: { hide: true },
    handler: async (req, reply) => {
      const raw = paramsOf(req);
      const confirm = req.method === 'POST' ? (raw as Record<string, unknown> | undefined)?.confirm : undefined;
      const input = { realmId: realmOf(req), ssoToken: readSsoCookie(req), now: deps.now() };
      const outcome =
        typeof confirm === 'string'
          ? await handleEndSessionConfirm({ ...input, confirm }, endSessionDeps)
          : await handleEndSession({ ...input, raw }, endSessionDeps);
      return answer(req, reply, outcome);
    },
  });
}
