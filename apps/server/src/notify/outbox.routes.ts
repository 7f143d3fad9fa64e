/** GET /api/users/outbox: the messages the outbox provider kept (issue 3). HTTP only. */
import { outboxQuery, outboxResult } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, ok, responses } from '../platform/http.js';
import type { OutboxService } from './outbox.service.js';

export function registerOutboxRoutes(app: FastifyInstance, outbox: OutboxService) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/users/outbox',
    {
      config: { access: 'outbox.query' },
      schema: {
        tags: ['notify'],
        summary: 'Mail and SMS kept by the outbox provider (no SMTP/SMS configured), newest first; administrators of the master realm only',
        security: [{ bearer: [] }],
        querystring: outboxQuery,
        response: responses(outboxResult),
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const q = req.query;
      return ok(
        await outbox.list(authOf(req).principal, { realmId: q.realm_id, channel: q.channel, recipient: q.recipient, limit: q.limit, offset: q.offset }),
      );
    },
  );
}
