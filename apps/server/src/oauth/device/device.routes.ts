/**
 * The console's side of the device grant (RFC 8628 §3.3): the signed-in user looks up the
 * code their device shows and approves or denies it, on the /device page. HTTP only; rules in
 * device.service.ts. Any signed-in account may decide for itself, in its own realm only.
 */
import { deviceDecisionBody, deviceDecisionResult, deviceLookupQuery, devicePaths, deviceRequestInfo } from '@umbo/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, requestMeta } from '../../audit/request-meta.js';
import { authOf, ok, responses } from '../../platform/http.js';
import type { DeviceCaller, DeviceService } from './device.service.js';

const tags = ['oauth'];

function callerOf(req: FastifyRequest): DeviceCaller {
  const { account, session } = authOf(req);
  return { accountId: account.id, realmId: account.realm_id, authTime: session.created_at, actor: actorOf(req), request: requestMeta(req) };
}

export function registerDeviceRoutes(app: FastifyInstance, deps: { device: DeviceService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    devicePaths.device,
    {
      config: { access: 'session' },
      schema: {
        tags,
        querystring: deviceLookupQuery,
        response: responses(deviceRequestInfo),
        summary:
          'The device request behind a user code (RFC 8628 §3.3): client, realm, scopes. 1090 unknown (or of another realm; throttled: errData {locked, retryAfter}), 1091 expired, 1092 decided, 1093 client disabled',
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ok(await deps.device.lookup(callerOf(req), req.query.user_code));
    },
  );

  r.post(
    devicePaths.device,
    {
      config: { access: 'session' },
      schema: {
        tags,
        body: deviceDecisionBody,
        response: responses(deviceDecisionResult),
        summary: 'Approve or deny a user code (once); the device then gets its tokens or access_denied. Errors as for GET',
      },
    },
    async (req) => ok(await deps.device.decide(callerOf(req), req.body.user_code, req.body.approve)),
  );
}
