/**
 * OAuth records over HTTP (SPEC §2 account/oauthList, §3 "OAuth record"; issue 12):
 *   - /api/users/oauth/records… — the signed-in user's own grants ('session': own data only);
 *   - /api/users/realms/:realmId/oauth/records… — a realm's, for `oauthList.<action>` in that
 *     realm (the guard decides before any lookup, A-39).
 * HTTP only; rules in records.service.ts.
 */
import { oauthRecordAdminParams, oauthRecordList, oauthRecordOwnParams, oauthRecordQuery, clientRealmParams } from '@umbo/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { RecordCaller, RecordsService } from './records.service.js';

const tags = ['oauth records'];
const noStore = { 'cache-control': 'no-store' };
const callerOf = (req: FastifyRequest): RecordCaller => ({ actor: actorOf(req), request: requestMeta(req) });

export function registerRecordRoutes(app: FastifyInstance, deps: { records: RecordsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { records } = deps;

  r.get(
    '/api/users/oauth/records',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The signed-in user’s OAuth records (client name, client id, OAuth time), newest first',
        querystring: oauthRecordQuery,
        response: responses(oauthRecordList),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(await records.listOwn(authOf(req).account, req.query));
    },
  );

  r.delete(
    '/api/users/oauth/records/:clientId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Revoke the signed-in user’s grant to a client: the record goes and every token of it ends (1004 when there is none)',
        params: oauthRecordOwnParams,
        response: responses(z.null()),
      },
    },
    async (req) => {
      await records.revokeOwn(callerOf(req), authOf(req).account, req.params.clientId);
      return ok(null);
    },
  );

  r.get(
    '/api/users/realms/:realmId/oauth/records',
    {
      config: { access: 'oauthList.query', realm: 'params.realmId' },
      schema: {
        tags,
        summary: 'A realm’s OAuth records with the account name, newest first, offset paged',
        params: clientRealmParams,
        querystring: oauthRecordQuery,
        response: responses(oauthRecordList),
      },
    },
    async (req, reply) => {
      reply.headers(noStore);
      return ok(await records.listRealm(req.params.realmId, req.query));
    },
  );

  r.delete(
    '/api/users/realms/:realmId/oauth/records/:accountId/:clientId',
    {
      config: { access: 'oauthList.delete', realm: 'params.realmId' },
      schema: {
        tags,
        summary: 'Revoke an account’s grant to a client of the realm: the record goes and every token of it ends',
        params: oauthRecordAdminParams,
        response: responses(z.null()),
      },
    },
    async (req) => {
      await records.revokeInRealm(callerOf(req), req.params.realmId, req.params.accountId, req.params.clientId);
      return ok(null);
    },
  );
}
