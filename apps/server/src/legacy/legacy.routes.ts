/**
 * The legacy `*.do` calls of SPEC §7, dispatched on `todo`. They carry the token in the body
 * (`auth` / `token`), so they are public routes that authenticate that token themselves: a
 * console token, or an access token of this OpenID provider (issue 12; SPEC §7 "auth (oauth
 * accesstoken)"), checked by the provider (passed in: the provider sits above this area).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Account } from '../accounts/accounts.repo.js';
import type { SessionService } from '../auth/sessions.service.js';
import { assertThat } from '../platform/errors.js';
import { failEnvelope, okEnvelope } from '../platform/http.js';

// an OAuth access token is a JWT: longer than a console token
const TOKEN_MAX = 8192;
const userDoBody = z.object({ todo: z.literal('GetIOTUserName'), userid: z.string().max(64).optional(), auth: z.string().max(TOKEN_MAX) });
const newauthDoBody = z.object({ todo: z.literal('GetUserInfoByToken'), token: z.string().max(TOKEN_MAX) });

export interface LegacyDeps {
  sessions: SessionService;
  /** the account of a live access token of the OpenID provider, else undefined */
  oauthAccount?: ((token: string) => Promise<Account | undefined>) | undefined;
}

export function registerLegacyRoutes(app: FastifyInstance, deps: LegacyDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The account behind a console token or, when it looks like a JWT, a provider access token. */
  const accountOf = async (token: string): Promise<Account | undefined> => {
    if (token.length <= 256) {
      const found = await deps.sessions.authenticate(token);
      if (found) return found.account;
    }
    return token.includes('.') && deps.oauthAccount ? deps.oauthAccount(token) : undefined;
  };

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
      const account = await accountOf(req.body.auth);
      assertThat(account, 'UNAUTHORIZED');
      // The cookie's userid must be the token's own account: no reading other users' names.
      assertThat(!req.body.userid || req.body.userid === account.id, 'FORBIDDEN');
      const userName = account.username;
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
      const account = await accountOf(req.body.token);
      assertThat(account, 'UNAUTHORIZED');
      return reply.send({ result: 'ok', code: 0, data: { userID: account.id }, userID: account.id });
    },
  );
}
