/**
 * "Refresh from backend" under /api/users/realms/:realmId/accounts/bulk/refresh (issue 14).
 * HTTP only: the rules are in person-refresh.service.ts. Beside the other bulk actions, and
 * like them realm-scoped (config.realm): the guard decides `person.edit` (the refresh rewrites
 * name, e-mail and phone, as the edit form does) in the path's realm before any work.
 */
import { personRealmParams, personRefreshBody, personRefreshResult, personRefreshState } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http.js';
import { adminCall } from '../../directory/person.routes.js';
import type { PersonRefreshService } from './refresh.service.js';

const tags = ['person accounts'];
const PATH = '/api/users/realms/:realmId/accounts/bulk/refresh';
const IN_REALM = 'params.realmId' as const;

export function registerPersonRefreshRoutes(app: FastifyInstance, deps: { refresh: PersonRefreshService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    PATH,
    {
      config: { access: 'person.query', realm: IN_REALM },
      schema: {
        tags,
        summary: "The realm's IT-interface backend a refresh asks (ecogloble or default), null when its accounts are kept here",
        params: personRealmParams,
        response: responses(personRefreshState),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.refresh.state(req.params.realmId));
    },
  );

  r.post(
    PATH,
    {
      config: { access: 'person.edit', realm: IN_REALM },
      schema: {
        tags,
        summary:
          "Refresh the selected shadow accounts (at most 500) from the realm's IT-interface backend: user name, e-mail and phone as the backend answers them, one transaction, one audit event per account changed. Per id: updated, unchanged, not_found (at the backend), not_linked, conflict (another account holds the value). Backend unreachable or failing: 1303 and nothing written; a realm without such a backend: 1009; an account wider than the caller: 1003",
        params: personRealmParams,
        body: personRefreshBody,
        response: responses(personRefreshResult),
      },
    },
    async (req) => ok(await deps.refresh.refresh(req.params.realmId, req.body.ids, adminCall(req))),
  );
}
