/**
 * What the openid-client interop suites stand on (issue 12 "Tests", SECURITY.md A-27's
 * replacement): the real app LISTENING on a loopback port (a relying party speaks HTTP, not
 * inject), once per database, with PUBLIC_URL = that address so the issuer is what the RP
 * dials; two realms, each with a person and the clients the flows need, created through the
 * clients service; and openid-client configurations made by discovery, as an RP would.
 *
 * The harness's fake clock is made to follow real time here: openid-client checks iat/exp
 * against the real clock, and the device grant's polling interval is real seconds.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { clientCreateBody, subClientCreateBody, type ClientCreateBody } from '@umbo/contracts';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe } from 'vitest';
import { createHarness, DB_TARGETS, type Harness } from '../../test/harness.js';
import { as, createPerson, createRealm, randomEmail, randomMobile, tokenFor, type TestAccount } from '../../test/kit.js';

export { oidc };

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
/** Redirect URIs of the RP: loopback http (RFC 8252 §7.3); nothing listens, the RP reads the Location. */
export const RP = 'http://127.0.0.1/interop';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface RealmFixture {
  realmId: string;
  issuer: string;
  person: TestAccount;
  /** confidential web app: code + refresh + client_credentials + token exchange (client_secret_basic) */
  web: { clientId: string; secret: string };
  /** sub client of `web` with allowToken (RFC 8693 target) */
  sub: { clientId: string; secret: string };
  /** public device client (token_endpoint_auth_method none) for the device grant */
  device: { clientId: string };
  /** private_key_jwt client (RFC 7523 §2.2) signing its assertions with `key` (ES256) */
  keyed: { clientId: string; key: oidc.CryptoKey; kid: string };
  /** a client whose tokens are signed RS256 (signingAlg) */
  rsa: { clientId: string; secret: string };
}

export interface Interop {
  h: Harness;
  base: string;
  a: RealmFixture;
  b: RealmFixture;
}

async function addClient(h: Harness, realmId: string, body: Partial<ClientCreateBody>) {
  const created = await h.ctx.services.clients.create(
    { realmId },
    { actor: null },
    clientCreateBody.parse({
      name: `interop ${crypto.randomBytes(3).toString('hex')}`,
      desc: 'openid-client interop',
      authCodeMulitUse: false,
      tokenExpirSec: 600,
      refreshtokenExpirSec: 3600,
      refreshTokenRecreate: true,
      redirectUris: [`${RP}/cb`],
      ...body,
    }),
  );
  return { clientId: created.client.clientId, secret: created.clientSecret ?? '' };
}

export async function seedRealm(h: Harness, base: string): Promise<RealmFixture> {
  const realmId = await createRealm(h);
  const person = await createPerson(h, { realmId, email: randomEmail(), phone: `+86${randomMobile()}` });
  const web = await addClient(h, realmId, {
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:token-exchange'],
    postLogoutRedirectUris: [`${RP}/logged-out`],
    consentRequired: true,
  });
  const created = await h.ctx.services.clients.createSub(
    { realmId },
    { actor: null },
    web.clientId,
    subClientCreateBody.parse({ name: 'interopsub', desc: 'a sub client for token exchange', allowToken: true, redirectUris: [`${RP}/sub-cb`] }),
  );
  const sub = { clientId: created.client.clientId, secret: created.clientSecret ?? '' };
  const device = await addClient(h, realmId, {
    grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
    tokenEndpointAuthMethod: 'none',
    consentRequired: false,
  });
  const pair = (await crypto.webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as oidc.CryptoKeyPair;
  const { kty, crv, x, y } = await crypto.webcrypto.subtle.exportKey('jwk', pair.publicKey);
  const kid = crypto.randomBytes(6).toString('hex');
  const keyed = await addClient(h, realmId, {
    grantTypes: ['client_credentials'],
    tokenEndpointAuthMethod: 'private_key_jwt',
    jwks: { keys: [{ kty: kty as 'EC', crv, x, y, kid, alg: 'ES256', use: 'sig' }] },
  });
  const rsa = await addClient(h, realmId, { grantTypes: ['authorization_code', 'refresh_token'], signingAlg: 'RS256', consentRequired: false });
  return {
    realmId,
    issuer: `${base}/realms/${realmId}`,
    person,
    web,
    sub,
    device: { clientId: device.clientId },
    keyed: { clientId: keyed.clientId, key: pair.privateKey, kid },
    rsa,
  };
}

/**
 * `describe` once per database with a listening app and two seeded realms. `env()` inside tests.
 */
export function describeInterop(name: string, fn: (env: () => Interop) => void): void {
  for (const target of DB_TARGETS) {
    describe(`${name} [${target.dialect}]`, () => {
      let env: Interop | undefined;
      let dispose: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        const port = await freePort();
        const base = `http://127.0.0.1:${port}`;
        const h = await createHarness(target, { PUBLIC_URL: base });
        dispose = h.dispose;
        // real time (see the header)
        h.clock.now = () => Date.now();
        await h.app.listen({ port, host: '127.0.0.1' });
        env = { h, base, a: await seedRealm(h, base), b: await seedRealm(h, base) };
      });
      afterAll(async () => {
        await dispose?.();
      });
      fn(() => {
        if (!env) throw new Error('interop environment not ready');
        return env;
      });
    });
  }
}

const insecure = { execute: [oidc.allowInsecureRequests] };

/** A confidential client of a realm, configured by discovery (client_secret_basic unless told). */
export function rpFor(realm: RealmFixture, who: 'web' | 'sub' | 'rsa' = 'web', auth: 'basic' | 'post' = 'basic'): Promise<oidc.Configuration> {
  const c = realm[who];
  const method = auth === 'basic' ? oidc.ClientSecretBasic(c.secret) : oidc.ClientSecretPost(c.secret);
  // the RS256 client says so, as its registration would (OIDC Registration §2 id_token_signed_response_alg)
  const metadata = { client_secret: c.secret, ...(who === 'rsa' ? { id_token_signed_response_alg: 'RS256' } : {}) };
  return oidc.discovery(new URL(realm.issuer), c.clientId, metadata, method, insecure);
}

/** The private_key_jwt client: openid-client signs its client assertions (RFC 7523). */
export function keyedRpFor(realm: RealmFixture): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(realm.issuer), realm.keyed.clientId, {}, oidc.PrivateKeyJwt({ key: realm.keyed.key, kid: realm.keyed.kid }), insecure);
}

/** The realm's public device client (RFC 8628 §3.1 "client_id" only). */
export function deviceRpFor(realm: RealmFixture): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(realm.issuer), realm.device.clientId, {}, oidc.None(), insecure);
}

export interface CodeFlowResult {
  tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  /** the provider's SSO cookie (name=value) the sign-in set */
  ssoCookie: string;
  nonce: string;
}

/**
 * Authorization code + PKCE without a browser: the RP builds the request, the provider sends
 * the user to /user/loginSSO?challenge=…, the console (its own API, as the sign-in screen
 * calls it) proves the user and approves the consent, and the RP redeems the code it is sent
 * back with. openid-client checks state, iss (RFC 9207), PKCE and the ID token.
 */
export async function codeFlow(
  i: Interop,
  realm: RealmFixture,
  cfg: oidc.Configuration,
  scope = 'openid profile email phone offline_access',
): Promise<CodeFlowResult> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(cfg, {
    redirect_uri: `${RP}/cb`,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 303 || !location) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  const challenge = new URL(location).searchParams.get('challenge');
  if (!challenge) throw new Error(`authorize did not send the user to sign in: ${location}`);
  const console = await tokenFor(i.h, realm.person);
  let next = await as(i.h, console).post('/api/users/oauth/interaction/login', { challenge });
  if (next.status !== 200) throw new Error(`interaction/login: ${JSON.stringify(next.body)}`);
  const sso = next.cookies.find((c) => c.value && /sso/i.test(c.name));
  if (next.body.data.next === 'consent') {
    next = await as(i.h, console).post('/api/users/oauth/interaction/consent', { challenge: next.body.data.challenge, approve: true });
    if (next.status !== 200) throw new Error(`interaction/consent: ${JSON.stringify(next.body)}`);
  }
  const redirectTo = new URL(next.body.data.redirectTo as string);
  const tokens = await oidc.authorizationCodeGrant(cfg, redirectTo, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  return { tokens, ssoCookie: sso ? `${sso.name}=${sso.value}` : '', nonce };
}

/** The RFC 6749 §5.2 / RFC 6750 §3 error openid-client reports for a refused request ('' when it did not throw). */
export async function oauthError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return '';
  } catch (err) {
    const e = err as { error?: string; cause?: unknown; code?: string; message?: string };
    // a 401 with WWW-Authenticate: openid-client's cause is the parsed challenges. A bearer
    // challenge names the error (RFC 6750 §3); a Basic one (RFC 6749 §5.2 invalid_client) does
    // not, the body does.
    if (Array.isArray(e.cause)) {
      const named = (e.cause[0] as { parameters?: { error?: string } } | undefined)?.parameters?.error;
      if (named) return named;
      const res = (err as { response?: Response }).response;
      if (res && !res.bodyUsed) return String(((await res.json().catch(() => ({}))) as { error?: string }).error);
    }
    return e.error ?? (e.cause as { error?: string } | undefined)?.error ?? e.code ?? String(e.message);
  }
}

/** The claims of a JWT (no verification: openid-client verified what it must; this only reads). */
export const claimsOf = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
