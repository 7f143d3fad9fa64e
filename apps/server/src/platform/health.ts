/** Liveness and readiness (issue 2; A-44: readiness fails while the database is away). */
import type { FastifyInstance } from 'fastify';
import type { DbHandle } from './db.js';

export function registerHealth(app: FastifyInstance, dbh: DbHandle): void {
  app.get('/healthz', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    const database = await dbh.ping();
    return reply.status(database ? 200 : 503).send({ status: database ? 'ready' : 'unavailable', database });
  });
}
