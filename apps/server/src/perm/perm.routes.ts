/** The current user's permission set (SPEC §3 "Current user"; DESIGN.md §4). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, memoized, ok, okEnvelope, responses, sendSerialized, serializeWith } from '../platform/http.js';
import type { PermService } from './perm.service.js';

const actionEntity = z.object({ action: z.string(), describe: z.string(), defaultCheck: z.boolean() });
const currentUser = z.object({
  id: z.string(),
  name: z.string(),
  avatar: z.string(),
  realmId: z.string(),
  roles: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      describe: z.string(),
      realmId: z.string(),
      permissions: z.array(
        z.object({
          roleId: z.string(),
          permissionId: z.string(),
          permissionName: z.string(),
          actions: z.array(actionEntity),
          actionEntitySet: z.array(actionEntity),
          actionList: z.array(z.string()),
        }),
      ),
    }),
  ),
  showDomain: z.boolean(),
  showDeveloper: z.boolean(),
  showServiceAccount: z.boolean(),
  showOAuth: z.boolean(),
});

const answer = okEnvelope(currentUser);

export function registerPermRoutes(app: FastifyInstance, deps: { perm: PermService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/perm/user/info',
    {
      config: { access: 'session', allowWhilePasswordChangeRequired: true },
      schema: { tags: ['perm'], summary: 'The signed-in account with its roles and permissions', response: responses(currentUser) },
    },
    async (req, reply) => {
      const auth = authOf(req);
      // Rendered and serialized once per guard cache entry (account and principal as of an
      // auth epoch): an administrator's set is ~30 KB of JSON, most of the read's cost (issue 11).
      const body = memoized(auth.memo, 'perm.user.info', () => serializeWith(answer, ok(deps.perm.currentUser(auth.account, auth.principal))));
      return sendSerialized(reply, body);
    },
  );
}
