/** A-03 / AS-04 at the source: which redirect URIs a client may register, and the client form's rules (SPEC §5). */
import { describe, expect, it } from 'vitest';
import { clientCreateBody, clientUpdateBody, isSourceRange, redirectUriProblem } from './clients.js';

const base = {
  name: 'App',
  desc: 'an app for tests',
  authCodeMulitUse: false,
  tokenExpirSec: 3600,
  refreshtokenExpirSec: 86400,
  refreshTokenRecreate: true,
  redirectUris: ['https://app.test/cb'],
};

describe('A-03 redirect URIs a client may register', () => {
  it.each([
    ['javascript:alert(1)', 'scheme'],
    ['JaVaScRiPt:alert(1)', 'scheme'],
    ['data:text/html,<script>alert(1)</script>', 'scheme'],
    ['http://app.test/cb', 'http_not_loopback'],
    ['https://app.test/cb#frag', 'fragment'],
    ['*', 'wildcard'],
    ['https://*.app.test/cb', 'wildcard'],
    ['https://user@app.test/cb', 'userinfo'],
    ['https://a@app.test@evil.test/cb', 'userinfo'],
    ['HTTPS://app.test/cb', 'scheme'],
    ['https://APP.test/cb', 'not_canonical'],
    ['https://app.test:443/cb', 'not_canonical'],
    ['https://app.test/cb/../x', 'not_canonical'],
    ['https://app.test/cb/%2e%2e/x', 'not_canonical'],
    ['https://app.test/c b', 'characters'],
    ['https://app.test\\@evil.test/cb', 'characters'],
    ['com.example.app:/cb', 'scheme'],
    ['', 'length'],
  ])('%s is refused (%s)', (uri, why) => {
    expect(redirectUriProblem(uri)).toBe(why);
    expect(clientCreateBody.safeParse({ ...base, redirectUris: [uri] }).success).toBe(false);
  });

  it.each([
    'https://app.test/cb',
    'https://app.test',
    'https://app.test/cb?x=1',
    'http://127.0.0.1/cb',
    'http://127.0.0.1:8080/cb',
    'http://[::1]/cb',
    'http://localhost:3000/cb',
  ])('%s is accepted', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
    expect(clientCreateBody.safeParse({ ...base, redirectUris: [uri] }).success).toBe(true);
  });
});

describe('client form rules (SPEC §5)', () => {
  it('needs name, description 4-50, expirations > 0, a redirect URL and both choices', () => {
    expect(clientCreateBody.safeParse(base).success).toBe(true);
    for (const key of ['name', 'desc', 'tokenExpirSec', 'refreshtokenExpirSec', 'redirectUris', 'authCodeMulitUse', 'refreshTokenRecreate'] as const) {
      const { [key]: _, ...rest } = base;
      expect(clientCreateBody.safeParse(rest).success, key).toBe(false);
    }
    expect(clientCreateBody.safeParse({ ...base, desc: 'abc' }).success).toBe(false);
    expect(clientCreateBody.safeParse({ ...base, desc: 'x'.repeat(51) }).success).toBe(false);
    expect(clientCreateBody.safeParse({ ...base, tokenExpirSec: 0 }).success).toBe(false);
    expect(clientCreateBody.safeParse({ ...base, refreshtokenExpirSec: -1 }).success).toBe(false);
    expect(clientCreateBody.safeParse({ ...base, redirectUris: [] }).success).toBe(false);
  });

  it('refuses fields a caller must not set (A-40) and unworkable combinations', () => {
    for (const extra of [{ realmId: 'x' }, { ownerAccountId: 'x' }, { secretHash: 'x' }, { parentId: 'x' }]) {
      expect(clientCreateBody.safeParse({ ...base, ...extra }).success).toBe(false);
      expect(clientUpdateBody.safeParse(extra).success).toBe(false);
    }
    expect(clientCreateBody.safeParse({ ...base, tokenEndpointAuthMethod: 'none', grantTypes: ['client_credentials'] }).success).toBe(false);
    expect(clientCreateBody.safeParse({ ...base, tokenEndpointAuthMethod: 'private_key_jwt' }).success).toBe(false);
    expect(clientCreateBody.safeParse({ ...base, jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'secret' }] } }).success).toBe(false);
    expect(clientCreateBody.safeParse({ ...base, sourceRanges: ['10.0.0.0/8'] }).success).toBe(false);
    expect(clientCreateBody.safeParse({ ...base, grantTypes: ['client_credentials'], sourceRanges: ['10.0.0.0/8', '192.168.1.7'] }).success).toBe(true);
  });

  it('source ranges: IPv4 or CIDR with a mask 0-32 (SPEC §5)', () => {
    for (const ok of ['10.0.0.0/8', '0.0.0.0/0', '1.2.3.4/32', '1.2.3.4']) expect(isSourceRange(ok), ok).toBe(true);
    for (const bad of ['10.0.0.0/33', '10.0.0.0/', '256.0.0.1', '::1', '10.0.0/8', '10.0.0.0/8 ']) expect(isSourceRange(bad), bad).toBe(false);
  });
});
