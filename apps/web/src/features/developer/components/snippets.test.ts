import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildSamples, discoveryUrl, endpointsOf, shq, type SampleClient } from './snippets';

const e = endpointsOf('https://id.example.com/realms/acme');
const client: SampleClient = {
  clientId: 'app_1',
  tokenEndpointAuthMethod: 'client_secret_basic',
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
  redirectUris: ['https://app.example.com/cb'],
  scopes: ['openid', 'profile'],
};

/** What a POSIX shell makes of a line: its words, one a line (a command substitution inside would show as its output). */
const words = (line: string) =>
  execFileSync('sh', ['-c', `printf '%s\\n' ${line}`])
    .toString()
    .split('\n')
    .slice(0, -1);

describe('developer page samples', () => {
  it('names the discovery document under the issuer (OIDC Discovery §4)', () => {
    expect(discoveryUrl(e.issuer)).toBe('https://id.example.com/realms/acme/.well-known/openid-configuration');
    expect(e.token_endpoint).toBe('https://id.example.com/realms/acme/oauth/token');
  });

  it('builds an authorization URL with PKCE S256, state and nonce', () => {
    const url = new URL(buildSamples(e, client).authorize);
    expect(url.origin + url.pathname).toBe(e.authorization_endpoint);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'app_1',
      redirect_uri: 'https://app.example.com/cb',
      scope: 'openid profile',
      code_challenge_method: 'S256',
    });
  });

  it('authenticates as the client is registered', () => {
    expect(buildSamples(e, client).code).toContain(`-u 'app_1:'"$CLIENT_SECRET"`);
    expect(buildSamples(e, { ...client, tokenEndpointAuthMethod: 'client_secret_post' }).code).toContain('-d client_secret="$CLIENT_SECRET"');
    const pub = buildSamples(e, { ...client, tokenEndpointAuthMethod: 'none' });
    expect(pub.code).not.toContain('CLIENT_SECRET');
    // RFC 6749 §4.4: a public client has no client_credentials grant
    expect(pub.clientCredentials).toBeUndefined();
    expect(buildSamples(e, { ...client, tokenEndpointAuthMethod: 'private_key_jwt' }).code).toContain(
      'client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
  });

  it('leaves out the grants the client may not use', () => {
    const s = buildSamples(e, { ...client, grantTypes: ['authorization_code'] });
    expect([s.refresh, s.clientCredentials, s.device]).toEqual([undefined, undefined, undefined]);
  });

  it('quotes registered values so that a pasted sample runs nothing they carry', () => {
    const evil = "https://app.example.com/x'$(echo${IFS}ran)'";
    expect(words(shq(evil))).toEqual([evil]);
    const code = buildSamples(e, { ...client, redirectUris: [evil] }).code;
    expect(code).toContain(`redirect_uri=${shq(evil)}`);
  });
});
