/**
 * /api/perm: the permission catalogue, a realm's roles and their assignments (issue 11).
 * HTTP only; the rules are in roles.service.ts. Every realm route names its realm in the path
 * and the guard decides `role.<action>` there before anything else. Assigning and
 * unassigning change who holds a role: `role.update`.
 */
import {
  assignmentBody,
  assignmentList,
  assignmentParams,
  assignmentsQuery,
  candidateList,
  candidatesQuery,
  catalogueView,
  permRealmParams,
  roleCreateBody,
  roleList,
  roleParams,
  rolesQuery,
  roleUpdateBody,
  roleView,
} from '@umbo/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { authOf, ok, responses } from '../platform/http.js';
import type { Caller, RolesService } from './roles.service.js';

const tags = ['perm'];
const A40 = 'Refused with 1062 (errData {permissionId, action}) when the role holds anything the caller does not hold in that realm (A-40).';

const callerOf = (req: FastifyRequest): Caller => ({ principal: authOf(req).principal, actor: actorOf(req), request: requestMeta(req) });

export function registerRolesRoutes(app: FastifyInstance, deps: { roles: RolesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = deps.roles;

  r.get(
    '/api/perm/permissions',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'The permission catalogue: ids (console route names), SPEC §6 actions, what each covers', response: responses(catalogueView) },
    },
    async () => ok(s.catalogue()),
  );

  r.get(
    '/api/perm/realms/:realmId/roles',
    {
      config: { access: 'role.query', realm: 'params.realmId' },
      schema: {
        tags,
        summary:
          "The roles a realm uses: the built-in ones (admin in master only) and the realm's own, with binding counts and what the caller may grant there",
        params: permRealmParams,
        querystring: rolesQuery,
        response: responses(roleList),
      },
    },
    async (req) => ok(await s.listRoles(callerOf(req), req.params.realmId, req.query)),
  );

  r.post(
    '/api/perm/realms/:realmId/roles',
    {
      config: { access: 'role.add', realm: 'params.realmId' },
      schema: {
        tags,
        summary: `Create a custom role in the realm: name (unique in the realm, 1060), description 4-50, realm permissions. ${A40}`,
        params: permRealmParams,
        body: roleCreateBody,
        response: responses(roleView),
      },
    },
    async (req) => ok(await s.createRole(callerOf(req), req.params.realmId, req.body)),
  );

  r.get(
    '/api/perm/realms/:realmId/roles/:roleId',
    {
      config: { access: 'role.get', realm: 'params.realmId' },
      schema: { tags, summary: 'One role as the realm sees it; another realm’s role is 1004', params: roleParams, response: responses(roleView) },
    },
    async (req) => ok(await s.getRole(callerOf(req), req.params.realmId, req.params.roleId)),
  );

  r.patch(
    '/api/perm/realms/:realmId/roles/:roleId',
    {
      config: { access: 'role.edit', realm: 'params.realmId' },
      schema: {
        tags,
        summary: `Change a custom role (built-in ones: 1061); permissions replace the whole set. The role before and after must both lie within the caller's set. ${A40}`,
        params: roleParams,
        body: roleUpdateBody,
        response: responses(roleView),
      },
    },
    async (req) => ok(await s.updateRole(callerOf(req), req.params.realmId, req.params.roleId, req.body)),
  );

  r.delete(
    '/api/perm/realms/:realmId/roles/:roleId',
    {
      config: { access: 'role.delete', realm: 'params.realmId' },
      schema: {
        tags,
        summary: `Delete a custom role and its assignments (built-in ones: 1061). ${A40}`,
        params: roleParams,
        response: responses(z.null()),
      },
    },
    async (req) => {
      await s.deleteRole(callerOf(req), req.params.realmId, req.params.roleId);
      return ok(null);
    },
  );

  r.get(
    '/api/perm/realms/:realmId/assignments',
    {
      config: { access: 'role.query', realm: 'params.realmId' },
      schema: {
        tags,
        summary: 'Who holds which role in the realm, newest first; filter by role, account, or part of the user name',
        params: permRealmParams,
        querystring: assignmentsQuery,
        response: responses(assignmentList),
      },
    },
    async (req) => ok(await s.listAssignments(req.params.realmId, req.query)),
  );

  r.post(
    '/api/perm/realms/:realmId/assignments',
    {
      config: { access: 'role.update', realm: 'params.realmId' },
      schema: {
        tags,
        summary: `Give a role to a person account of the realm (unknown account 1207; admin outside master 1064); giving it again changes nothing. ${A40}`,
        params: permRealmParams,
        body: assignmentBody,
        response: responses(z.object({ created: z.boolean() })),
      },
    },
    async (req) => ok(await s.assign(callerOf(req), req.params.realmId, req.body)),
  );

  r.delete(
    '/api/perm/realms/:realmId/assignments/:accountId/:roleId',
    {
      config: { access: 'role.update', realm: 'params.realmId' },
      schema: {
        tags,
        summary: `Take a role from an account in the realm; the last enabled admin of master keeps it (1063). ${A40}`,
        params: assignmentParams,
        response: responses(z.null()),
      },
    },
    async (req) => {
      await s.unassign(callerOf(req), req.params.realmId, req.params.accountId, req.params.roleId);
      return ok(null);
    },
  );

  r.get(
    '/api/perm/realms/:realmId/candidates',
    {
      config: { access: 'role.update', realm: 'params.realmId' },
      schema: {
        tags,
        summary: 'Person accounts of the realm whose name, email or phone contains q (at most 20): whom a role can be given to',
        params: permRealmParams,
        querystring: candidatesQuery,
        response: responses(candidateList),
      },
    },
    async (req) => ok(await s.candidates(req.params.realmId, req.query.q, req.query.limit)),
  );
}
