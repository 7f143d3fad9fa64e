/** Registers the issue-3 public flows and the outbox page (app.ts calls this once). */
import type { FastifyInstance } from 'fastify';
import { registerOutboxRoutes } from '../../notify/outbox.routes.js';
import { registerAccountFlowRoutes } from './account.routes.js';
import { registerSignInFlowRoutes } from './sign-in.routes.js';
import type { FlowServices } from './wiring.js';

export function registerFlowRoutes(app: FastifyInstance, flows: FlowServices, secureCookies: boolean): void {
  registerSignInFlowRoutes(app, flows, secureCookies);
  registerAccountFlowRoutes(app, flows);
  registerOutboxRoutes(app, flows.outbox);
  // Pending deliveries finish and Redis is let go when the app closes.
  app.addHook('onClose', async () => flows.close());
}
