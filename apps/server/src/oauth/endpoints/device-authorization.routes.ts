/**
 * POST {issuer}/oauth/device_authorization (RFC 8628 §3.1–3.2). Steps:
 *
 * 1. POST only (others: 405); `Cache-Control: no-store` on every answer: the device code is a
 *    credential (RFC 6749 §5.1 by analogy, AS-14);
 * 2. the form body, each parameter once (oauth-http.ts readForm);
 * 3. the client authenticates as at the token endpoint (checks/client-auth.ts): a confidential
 *    client with its credentials, a public client by its client_id (§3.1); unknown realm 404;
 * 4. the client is registered for the device_code grant, else unauthorized_client (AS-11);
 * 5. scope as at the authorization endpoint (checks/check-device-scope.ts), else invalid_scope;
 * 6. a new device code and user code (device/device.service.ts), answered as §3.2 says.
 */
import type { FastifyInstance } from 'fastify';
import type { ClientAuth } from '../checks/client-auth.js';
import { checkDeviceScope } from '../checks/check-device-scope.js';
import type { DeviceService } from '../device/device.service.js';
import { UnauthorizedClient } from '../errors.js';
import { DEVICE_CODE_GRANT } from '../grants/types.js';
import { refuseAllButPost, NO_STORE, oauthScope, readForm, realmParam, sendJson } from './oauth-http.js';

export interface DeviceAuthorizationDeps {
  device: DeviceService;
  clientAuth: ClientAuth;
  issuer(realmId: string): string;
}

const PATH = '/realms/:realmId/oauth/device_authorization';

export function registerDeviceAuthorizationRoutes(app: FastifyInstance, deps: DeviceAuthorizationDeps): void {
  oauthScope(app, (scope) => {
    refuseAllButPost(scope, PATH);

    scope.post(PATH, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
      reply.headers(NO_STORE);
      const realmId = realmParam(req);
      const params = readForm(req);
      const { client } = await deps.clientAuth.authenticate(
        { realmId, authorization: req.headers.authorization, params, endpointUrl: `${deps.issuer(realmId)}/oauth/device_authorization` },
        { allowPublic: true },
      );
      if (!client.grantTypes.includes(DEVICE_CODE_GRANT)) throw new UnauthorizedClient('this client may not use the device authorization grant');
      const granted = checkDeviceScope(client, params.scope);
      return sendJson(reply, 200, await deps.device.start(client, granted));
    });
  });
}
