/**
 * Logo and icon upload (domain.edit in the realm), their public copies for the sign-in page,
 * and the email group's "send test mail" (issue 11). HTTP only; rules in
 * realm-branding.service.ts.
 */
import { brandingParams, brandingResult, brandingUpload, realmParams, testMailBody, testMailResult } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requestMeta } from '../audit/request-meta.js';
import { requestLocale } from '../platform/i18n.js';
import { ok, responses } from '../platform/http.js';
import type { RealmBrandingService } from './realm-branding.service.js';

const tags = ['realms'];

export function registerRealmBrandingRoutes(app: FastifyInstance, deps: { branding: RealmBrandingService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { branding } = deps;

  r.put(
    '/api/users/realms/:realmId/branding/:kind',
    {
      config: { access: 'domain.edit', realm: 'params.realmId' },
      schema: {
        tags,
        params: brandingParams,
        body: brandingUpload,
        response: responses(brandingResult),
        summary: 'Upload the logo (≤ 4 KB) or icon (≤ 16 KB) as a data URL; the bytes must be PNG or JPEG (1033 otherwise). Sets logo_img_url / icon_img_url',
      },
    },
    async (req) => ok(await branding.upload(req.params.realmId, req.params.kind, req.body.dataUrl, { actor: actorOf(req), request: requestMeta(req) })),
  );

  r.delete(
    '/api/users/realms/:realmId/branding/:kind',
    {
      config: { access: 'domain.edit', realm: 'params.realmId' },
      schema: { tags, params: brandingParams, response: responses(z.object({})), summary: 'Remove the uploaded logo or icon' },
    },
    async (req) => {
      await branding.remove(req.params.realmId, req.params.kind, { actor: actorOf(req), request: requestMeta(req) });
      return ok({});
    },
  );

  r.get(
    '/api/users/realms/:realmId/branding/:kind',
    {
      // Public: the sign-in page shows the realm's logo before anyone signs in.
      config: { access: 'public' },
      schema: { tags, params: brandingParams, summary: 'The uploaded logo or icon (image/png or image/jpeg); 1004 when none' },
    },
    async (req, reply) => {
      const img = await branding.image(req.params.realmId, req.params.kind);
      reply
        .header('content-type', img.type)
        .header('x-content-type-options', 'nosniff')
        // The URL carries ?v=<upload time>: a new upload is a new URL, so an hour is safe.
        .header('cache-control', 'public, max-age=3600')
        .header('last-modified', new Date(img.updatedAt).toUTCString())
        .header('content-security-policy', "default-src 'none'; sandbox");
      return reply.send(img.bytes);
    },
  );

  r.post(
    '/api/users/realms/:realmId/settings/test-mail',
    {
      config: { access: 'domain.edit', realm: 'params.realmId' },
      schema: {
        tags,
        params: realmParams,
        body: testMailBody,
        response: responses(testMailResult),
        summary: "Send a test mail now through the realm's SMTP (else the global one, else the outbox); 1034 {via, reason} when it fails",
      },
    },
    async (req) => ok(await branding.testMail(req.params.realmId, req.body.to, requestLocale(req), { actor: actorOf(req), request: requestMeta(req) })),
  );
}
