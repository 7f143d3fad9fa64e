/** GET /project.config.json (SPEC §7): what the console loads before it starts. */
import type { ProjectConfig } from '@umbo/contracts';
import { DEFAULT_LOCALE } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

export function registerProjectConfig(app: FastifyInstance, config: Config): void {
  const body: ProjectConfig = {
    siteTitle: config.siteTitle,
    header: {
      globalScript: config.headerScriptGlobal,
      chinaScript: config.headerScriptChina,
      chinaHosts: config.headerChinaHosts,
      timeoutMs: 3000,
    },
    defaultLocale: DEFAULT_LOCALE,
    realmId: 'master',
  };
  // The `ts` query only defeats caches (SPEC §7); it is ignored.
  app.get('/project.config.json', { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    return reply.header('cache-control', 'no-store').send(body);
  });
}
