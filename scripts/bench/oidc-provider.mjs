/**
 * The issue-12 bench's yardstick: `oidc-provider` (npm, v9: a certified OpenID provider for
 * Node.js) set up for the grant the bench measures, as its documentation says:
 * `features.clientCredentials`, `features.resourceIndicators` whose resource server asks for
 * JWT access tokens (`accessTokenFormat: 'jwt'`, RFC 9068) signed ES256 with a P-256 key of its
 * JWKS, one confidential client (client_secret_basic) allowed client_credentials. Its default
 * in-memory adapter: a JWT access token is not stored, so no database cost is hidden on
 * either side (umbo keeps nothing for a client_credentials token either).
 *
 * Env: PORT; CLIENT_ID and CLIENT_SECRET (the bench sends them); RESOURCE (the audience).
 * Answers GET /readyz like the other bench servers.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.PORT);
const issuer = `http://127.0.0.1:${port}`;
const resource = process.env.RESOURCE || 'urn:umbo:bench:api';

const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'bench-es256', alg: 'ES256', use: 'sig' };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.CLIENT_ID,
      client_secret: process.env.CLIENT_SECRET,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [jwk] },
  clientDefaults: { id_token_signed_response_alg: 'ES256' },
  scopes: ['openid', 'api:read'],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // no `resource` parameter in the request: this one (RFC 8707 §2 lets the AS pick a default)
      defaultResource: () => resource,
      getResourceServerInfo: () => ({
        scope: 'api:read',
        audience: resource,
        accessTokenTTL: 3600,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'ES256' } },
      }),
    },
  },
});
provider.proxy = false;

const callback = provider.callback();
http
  .createServer((req, res) => {
    if (req.url === '/readyz') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' });
      res.end('{"ok":true}');
      return;
    }
    callback(req, res);
  })
  .listen(port, '127.0.0.1');
