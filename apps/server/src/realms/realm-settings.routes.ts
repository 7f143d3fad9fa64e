/**
 * GET / PATCH /api/users/realms/:realmId/settings: a realm's sign-in methods, regions,
 * activation and templates, branding, captcha policy, mail and SMS provider (SPEC §3).
 * HTTP only; rules in realm-settings.service.ts.
 */
import { realmSettingsParams, realmSettingsPatch, realmSettingsView } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { ok, responses } from '../platform/http.js';
import type { RealmSettingsService } from './realm-settings.service.js';

const tags = ['realms'];
const SECRETS_NOTE =
  "Secrets (email.password, sms.secret, sms.accessKeySecret, sms.authToken, backend.appSercet, backend.appCloudSecret, oauth.clientSecret) are write-only: answered as '' with hasPassword / hasSecret / hasAccessKeySecret / hasAuthToken / hasAppSercet / hasAppCloudSecret / hasClientSecret";

export function registerRealmSettingsRoutes(app: FastifyInstance, deps: { settings: RealmSettingsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/users/realms/:realmId/settings',
    {
      config: { access: 'domain.query', realm: 'params.realmId' },
      schema: {
        tags,
        params: realmSettingsParams,
        response: responses(realmSettingsView),
        summary: `A realm's settings (SPEC §3). domain.query in that realm, or admin of master (1003 otherwise); unknown realm 1004. ${SECRETS_NOTE}`,
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.settings.get(req.params.realmId));
    },
  );

  r.patch(
    '/api/users/realms/:realmId/settings',
    {
      config: { access: 'domain.edit', realm: 'params.realmId' },
      schema: {
        tags,
        params: realmSettingsParams,
        body: realmSettingsPatch,
        response: responses(realmSettingsView),
        summary:
          "Change some of a realm's settings and answer all of them. Unknown or invalid fields: 1009 naming the field, nothing written. " +
          `email / sms / backend / oauth / protection replace the whole group (null removes it: global SMTP / SMS provider, no backend, default protection). A secret omitted is kept unless the group's destination changed; '' clears it. ${SECRETS_NOTE}. domain.edit in that realm, or admin of master`,
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.settings.update(req.params.realmId, req.body, { actor: actorOf(req), request: requestMeta(req) }));
    },
  );
}
