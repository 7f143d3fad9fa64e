/** Builds the Fastify application from a context. No listening, no migrations: see main.ts. */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './composition/context.js';
import { registerRoutes } from './composition/routes.js';
import { registerErrorHandling } from './platform/errors.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { registerCompression } from './platform/compression.js';
import { registerMetrics } from './platform/metrics.js';
import { registerHealth } from './platform/health.js';
import { registerProjectConfig } from './platform/project-config.js';
import { registerSpa } from './platform/spa.js';
import { registerGuard } from './auth/guard.js';
import { randomHexId } from './platform/crypto.js';

export interface BuildOptions {
  /** false: no request log (tests); otherwise the context's logger (platform/logger.ts) */
  logger?: boolean;
}

export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const { config, services } = ctx;
  const app = Fastify({
    ...(opts.logger === false ? { logger: false } : { loggerInstance: ctx.log as FastifyBaseLogger }),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // Request ids in every log line; a caller-supplied id is kept only if it looks sane.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      // from a pre-filled pool: cheaper per request than newId() (issue 11) and randomUUID (issue 12 bench)
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomHexId();
    },
    requestIdHeader: false,
    // Request lines for the API and the OpenID provider; the console's static files would
    // bury everything else (and the first start's administrator block) under asset lines.
    logController: new LogController({ disableRequestLogging: (req) => !(req.url.startsWith('/api/') || req.url.startsWith('/realms/')) }),
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerSecurityHeaders(app, config);
  registerCompression(app);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'umbo API', version: '0.1.0', description: 'Identity service and admin console API. Answers use the envelope {result, code, data}.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { docExpansion: 'list' } });

  // Before any route: every /api route registered after it must declare its access.
  registerGuard(app, { sessions: services.sessions, perm: services.perm });
  registerMetrics(app, ctx.dbh, ctx.requestWindow);
  registerHealth(app, ctx.dbh);
  registerProjectConfig(app, config);
  registerRoutes(app, ctx);
  await registerSpa(app, config);
  // Pending deliveries finish and Redis is let go when the app closes.
  app.addHook('onClose', async () => ctx.close());
  return app;
}
