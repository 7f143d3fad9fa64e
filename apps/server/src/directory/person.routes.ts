/**
 * Person accounts of a realm under /api/users/realms/:realmId/accounts (issue 11). HTTP only:
 * rules in person-*.service.ts. Every route names its realm (config.realm), so the guard
 * decides `person.<action>` in that realm before any work; bodies are strict.
 */
import {
  createPersonBody,
  personBulkBody,
  personBulkResult,
  personDetail,
  personList,
  personListQuery,
  personOtpState,
  personParams,
  personPasswordBody,
  personRealmParams,
  personRevokeResult,
  personSessionList,
  personSessionParams,
  updatePersonBody,
} from '@umbo/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { AdminCall, PersonAdminService } from './person-admin.service.js';
import type { BulkAction, PersonBulkService } from './person-bulk.service.js';
import type { PersonListService } from './person-list.service.js';

const tags = ['person accounts'];
const BASE = '/api/users/realms/:realmId/accounts';
const IN_REALM = 'params.realmId' as const;
const NOT_FOUND = '1207 when the id is not a person account of this realm';

export function adminCall(req: FastifyRequest): AdminCall {
  return { principal: authOf(req).principal, actor: actorOf(req), request: requestMeta(req) };
}

export interface PersonRouteDeps {
  admin: PersonAdminService;
  list: PersonListService;
  bulk: PersonBulkService;
}

export function registerPersonRoutes(app: FastifyInstance, deps: PersonRouteDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { admin } = deps;

  r.get(
    BASE,
    {
      config: { access: 'person.query', realm: IN_REALM },
      schema: {
        tags,
        summary:
          'Person accounts of the realm, one keyset page: pass `nextCursor` or `prevCursor` of a page as `cursor` (with the same sort and filters). q searches user name, email, phone or id by prefix (match=contains: any part). total is exact up to 10,000, beyond that 10000 with totalCapped',
        params: personRealmParams,
        querystring: personListQuery,
        response: responses(personList),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.list.list(req.params.realmId, req.query));
    },
  );

  r.post(
    BASE,
    {
      config: { access: 'person.add', realm: IN_REALM },
      schema: {
        tags,
        summary:
          'Create a person account. A password given is temporary (must be changed at the first sign-in) unless forcePassword is false. Taken user name, email or phone: 1205 naming the field',
        params: personRealmParams,
        body: createPersonBody,
        response: responses(personDetail),
      },
    },
    async (req) => ok(await admin.create(req.params.realmId, req.body, adminCall(req))),
  );

  for (const action of ['enable', 'disable', 'delete'] as const satisfies readonly BulkAction[]) {
    r.post(
      `${BASE}/bulk/${action}`,
      {
        config: { access: `person.${action}`, realm: IN_REALM },
        schema: {
          tags,
          summary: `${action} the selected person accounts (at most 500) in one transaction; ids that are not person accounts of this realm come back in notFound. The caller's own account in the selection: 1042, nothing changed`,
          params: personRealmParams,
          body: personBulkBody,
          response: responses(personBulkResult),
        },
      },
      async (req) => ok(await deps.bulk.run(req.params.realmId, action, req.body.ids, adminCall(req))),
    );
  }

  r.get(
    `${BASE}/:id`,
    {
      config: { access: 'person.get', realm: IN_REALM },
      schema: { tags, summary: `One person account (never its password hash); ${NOT_FOUND}`, params: personParams, response: responses(personDetail) },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await admin.get(req.params.realmId, req.params.id));
    },
  );

  r.patch(
    `${BASE}/:id`,
    {
      config: { access: 'person.edit', realm: IN_REALM },
      schema: {
        tags,
        summary: `Change the email and/or phone (null unbinds; taken: 1205 naming the field). Any other field: 1009; ${NOT_FOUND}`,
        params: personParams,
        body: updatePersonBody,
        response: responses(personDetail),
      },
    },
    async (req) => ok(await admin.update(req.params.realmId, req.params.id, req.body, adminCall(req))),
  );

  for (const action of ['enable', 'disable'] as const) {
    r.post(
      `${BASE}/:id/${action}`,
      {
        config: { access: `person.${action}`, realm: IN_REALM },
        schema: {
          tags,
          summary: `${action === 'disable' ? 'Disable the account and end its sessions' : 'Enable the account'}; own account: 1042; ${NOT_FOUND}`,
          params: personParams,
          response: responses(personDetail),
        },
      },
      async (req) => ok(await admin.setDisabled(req.params.realmId, req.params.id, action === 'disable', adminCall(req))),
    );
  }

  r.delete(
    `${BASE}/:id`,
    {
      config: { access: 'person.delete', realm: IN_REALM },
      schema: {
        tags,
        summary: `Delete the account with its sessions, roles, OTP and service accounts; own account: 1042; ${NOT_FOUND}`,
        params: personParams,
        response: responses(z.object({ deleted: z.literal(true) })),
      },
    },
    async (req) => {
      await admin.remove(req.params.realmId, req.params.id, adminCall(req));
      return ok({ deleted: true as const });
    },
  );

  r.post(
    `${BASE}/:id/password`,
    {
      config: { access: 'person.update', realm: IN_REALM },
      schema: {
        tags,
        summary: `Set a temporary password (SPEC §5 and the realm's minimum; 1021 otherwise): the account must change it at its next sign-in, and every session ends; ${NOT_FOUND}`,
        params: personParams,
        body: personPasswordBody,
        response: responses(z.object({ forcePassword: z.literal(true) })),
      },
    },
    async (req) => {
      await admin.setTemporaryPassword(req.params.realmId, req.params.id, req.body.password, adminCall(req));
      return ok({ forcePassword: true as const });
    },
  );

  r.get(
    `${BASE}/:id/sessions`,
    {
      config: { access: 'person.get', realm: IN_REALM },
      schema: { tags, summary: `The account's live console sessions; ${NOT_FOUND}`, params: personParams, response: responses(personSessionList) },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await admin.listSessions(req.params.realmId, req.params.id));
    },
  );

  r.delete(
    `${BASE}/:id/sessions`,
    {
      config: { access: 'person.update', realm: IN_REALM },
      schema: { tags, summary: `End every session of the account; ${NOT_FOUND}`, params: personParams, response: responses(personRevokeResult) },
    },
    async (req) => ok(await admin.revokeSessions(req.params.realmId, req.params.id, undefined, adminCall(req))),
  );

  r.delete(
    `${BASE}/:id/sessions/:sessionId`,
    {
      config: { access: 'person.update', realm: IN_REALM },
      schema: {
        tags,
        summary: `End one live session of the account (1004 when it is not one); ${NOT_FOUND}`,
        params: personSessionParams,
        response: responses(personRevokeResult),
      },
    },
    async (req) => ok(await admin.revokeSessions(req.params.realmId, req.params.id, req.params.sessionId, adminCall(req))),
  );

  r.get(
    `${BASE}/:id/otp`,
    {
      config: { access: 'person.get', realm: IN_REALM },
      schema: { tags, summary: `The account's one-time password state; ${NOT_FOUND}`, params: personParams, response: responses(personOtpState) },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await admin.otpState(req.params.realmId, req.params.id));
    },
  );

  r.delete(
    `${BASE}/:id/otp`,
    {
      config: { access: 'person.update', realm: IN_REALM },
      schema: {
        tags,
        summary: `Reset the one-time password (device lost): off, recovery codes gone; the account sets it up again. ${NOT_FOUND}`,
        params: personParams,
        response: responses(personOtpState),
      },
    },
    async (req) => ok(await admin.resetOtp(req.params.realmId, req.params.id, adminCall(req))),
  );
}
