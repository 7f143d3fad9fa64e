/**
 * The developer page's sample requests (SPEC §2 "developer page"), built from the realm's
 * discovery document and one client. Pure text, so it is tested without a browser.
 *
 * Every value taken from a client (its id, a redirect URL) is shell-quoted: a registered URL
 * may hold `'`, `$` or `(` (RFC 3986 allows them in a path), and a sample pasted into a shell
 * must not run anything it carries. Secrets are never put in: `$CLIENT_SECRET` and the other
 * capitals are for the developer to fill in.
 */
import type { ClientListItem } from '@umbo/contracts/clients';

export interface Endpoints {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
  introspection_endpoint: string;
  revocation_endpoint: string;
  end_session_endpoint: string;
  device_authorization_endpoint: string;
}

/** The endpoints under an issuer (DESIGN.md §5; apps/server/src/oauth/endpoints/discovery.ts), for when the document cannot be read. */
export function endpointsOf(issuer: string): Endpoints {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/oauth/jwks`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    end_session_endpoint: `${issuer}/oauth/logout`,
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
  };
}

export const discoveryUrl = (issuer: string) => `${issuer}/.well-known/openid-configuration`;

/** POSIX shell single quotes: nothing inside is expanded; a quote is closed, escaped and reopened. */
export function shq(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export type SampleClient = Pick<ClientListItem, 'clientId' | 'tokenEndpointAuthMethod' | 'grantTypes' | 'redirectUris'> & { scopes?: string[] };

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** How the client proves itself at the token endpoint (RFC 6749 §2.3, RFC 7523 §2.2), as curl arguments. */
function clientAuth(c: SampleClient): string[] {
  switch (c.tokenEndpointAuthMethod) {
    case 'client_secret_basic':
      // RFC 6749 §2.3.1: id and secret form-encoded; ours are letters, digits and `_ . -`, which encode as themselves
      return [`-u ${shq(`${c.clientId}:`)}"$CLIENT_SECRET"`];
    case 'client_secret_post':
      return [`-d client_id=${shq(c.clientId)}`, `-d client_secret="$CLIENT_SECRET"`];
    case 'private_key_jwt':
      return [
        `-d client_id=${shq(c.clientId)}`,
        `-d client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`,
        `-d client_assertion="$CLIENT_ASSERTION"`,
      ];
    case 'none':
      return [`-d client_id=${shq(c.clientId)}`];
  }
}

const curl = (url: string, args: string[]) => [`curl -X POST ${shq(url)}`, ...args].join(' \\\n  ');

export interface Samples {
  pkce: string;
  authorize: string;
  code: string;
  refresh: string | undefined;
  clientCredentials: string | undefined;
  device: string | undefined;
  userinfo: string;
}

export function buildSamples(e: Endpoints, c: SampleClient): Samples {
  const auth = clientAuth(c);
  const redirect = c.redirectUris[0] ?? 'REDIRECT_URL';
  const scope = (c.scopes?.length ? c.scopes : ['openid', 'profile']).join(' ');
  const has = (g: string) => c.grantTypes.includes(g);

  const query = new URLSearchParams({
    response_type: 'code',
    client_id: c.clientId,
    redirect_uri: redirect,
    scope,
    state: 'STATE',
    nonce: 'NONCE',
    code_challenge: 'CODE_CHALLENGE',
    code_challenge_method: 'S256',
  });

  return {
    // RFC 7636 §4.1-4.2: a 43-128 character verifier and its S256 challenge, base64url without padding.
    pkce: [
      `CODE_VERIFIER=$(openssl rand -base64 48 | tr '+/' '-_' | tr -d '=\\n')`,
      `CODE_CHALLENGE=$(printf '%s' "$CODE_VERIFIER" | openssl dgst -sha256 -binary | openssl base64 -A | tr '+/' '-_' | tr -d '=')`,
      `STATE=$(openssl rand -hex 16)`,
      `NONCE=$(openssl rand -hex 16)`,
    ].join('\n'),
    authorize: `${e.authorization_endpoint}?${query.toString()}`,
    code: curl(e.token_endpoint, [
      ...auth,
      '-d grant_type=authorization_code',
      '-d code="$CODE"',
      `--data-urlencode redirect_uri=${shq(redirect)}`,
      '-d code_verifier="$CODE_VERIFIER"',
    ]),
    refresh: has('refresh_token') ? curl(e.token_endpoint, [...auth, '-d grant_type=refresh_token', '-d refresh_token="$REFRESH_TOKEN"']) : undefined,
    clientCredentials:
      has('client_credentials') && c.tokenEndpointAuthMethod !== 'none' ? curl(e.token_endpoint, [...auth, '-d grant_type=client_credentials']) : undefined,
    // RFC 8628 §3.1 then §3.4: ask for a user code, then poll the token endpoint every `interval` seconds.
    device: has(DEVICE_GRANT)
      ? [
          curl(e.device_authorization_endpoint, [...auth, `--data-urlencode scope=${shq(scope)}`]),
          '',
          curl(e.token_endpoint, [...auth, `-d grant_type=${DEVICE_GRANT}`, '-d device_code="$DEVICE_CODE"']),
        ].join('\n')
      : undefined,
    userinfo: `curl ${shq(e.userinfo_endpoint)} \\\n  -H "Authorization: Bearer $ACCESS_TOKEN"`,
  };
}
