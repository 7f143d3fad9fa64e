/**
 * Issue 12 "Tests" / SECURITY.md A-27 (replaced by this suite): openid-client v6, a certified
 * relying party we did not write, against TWO realms of one running umbo, with the sign-in
 * driven through the real screens in Chromium. The RP is openid-client plus a loopback HTTP
 * server at its redirect URIs (what a web app is); the person is Chromium:
 * - discovery; authorization code + PKCE through /user/loginSSO and the consent screen, the
 *   code arriving at the RP, redeemed by openid-client, which validates the ID token (and
 *   state, iss, nonce); userinfo; refresh with rotation; introspection; revocation;
 * - a token of realm A refused at realm B's userinfo and introspection;
 * - RP-initiated logout: the browser follows openid-client's end-session URL back to the RP,
 *   and the provider's SSO session is over (prompt=none answers login_required);
 * - the device grant end to end: openid-client polls while the person, in Chromium, opens the
 *   verification URI, signs in and approves the user code on /device.
 * The server-side interop suites without a browser: apps/server/src/oauth/interop/.
 * Screenshots: test-results/browser/oidc-interop-<nn>-<locale>-<step>.png.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientPaths, DEVICE_GRANT_TYPE, personPaths } from '@umbo/contracts';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './actions';
import {
  assertPrerequisites,
  browserPresent,
  browserRequired,
  expectNoCspViolations,
  launchBrowser,
  newWatchedPage,
  screenshot,
  startServer,
  type RunningServer,
} from './harness';

const PASSWORD = 'Interop-Pass-8642';
const RUN = crypto.randomBytes(3).toString('hex');

interface Realm {
  id: string;
  issuer: string;
  person: { id: string; username: string };
  web: { clientId: string; secret: string };
  device: { clientId: string };
}

/** The RP's redirect URIs: a loopback HTTP server that records what arrives. */
function startRp(): Promise<{ base: string; hits: URL[]; close(): Promise<void> }> {
  const hits: URL[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', base));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>relying party</title><h1>Back at the relying party</h1></html>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ base, hits, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

/** The RFC error openid-client reports for a refused request ('' when it did not throw). */
async function oauthError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return '';
  } catch (err) {
    const e = err as { error?: string; cause?: unknown; response?: Response };
    if (Array.isArray(e.cause)) {
      const named = (e.cause[0] as { parameters?: { error?: string } } | undefined)?.parameters?.error;
      if (named) return named;
      if (e.response && !e.response.bodyUsed) return String(((await e.response.json().catch(() => ({}))) as { error?: string }).error);
    }
    return String(e.error ?? (err as Error).message);
  }
}

describe.skipIf(!browserPresent && !browserRequired)('A-27 (replaced) openid-client interop through the sign-in screens in Chromium, two realms', () => {
  afterEach(expectNoCspViolations);
  let server: RunningServer;
  let browser: Browser;
  let rp: Awaited<ReturnType<typeof startRp>>;
  let adminToken = '';
  const realms: Realm[] = [];

  async function call(method: string, path: string, body?: object) {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { code: number; data: any };
    expect(json.code, `${method} ${path}: ${JSON.stringify(json)}`).toBe(0);
    return json.data;
  }

  async function makeRealm(n: number): Promise<Realm> {
    const id = `oi${n}${RUN}`;
    // a test cannot read an image captcha (harness.ts)
    await call('POST', '/api/users/realms', {
      realmId: id,
      domain: `${id}.example.com`,
      description: 'an interop realm',
      settings: { captchaPolicy: 'after_failures' },
    });
    const username = `interop${n}${RUN}`;
    const person = await call('POST', personPaths.list(id), { username, password: PASSWORD, email: `${username}@example.test`, forcePassword: false });
    const web = await call('POST', clientPaths.list({ realmId: id }), {
      name: `Interop web ${n}`,
      desc: 'openid-client as a web app',
      authCodeMulitUse: false,
      tokenExpirSec: 600,
      refreshtokenExpirSec: 3600,
      refreshTokenRecreate: true,
      redirectUris: [`${rp.base}/cb`],
      postLogoutRedirectUris: [`${rp.base}/logged-out`],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    const device = await call('POST', clientPaths.list({ realmId: id }), {
      name: `Interop device ${n}`,
      desc: 'openid-client as a device',
      authCodeMulitUse: false,
      tokenExpirSec: 600,
      refreshtokenExpirSec: 3600,
      refreshTokenRecreate: true,
      redirectUris: [`${rp.base}/device-cb`],
      grantTypes: [DEVICE_GRANT_TYPE, 'refresh_token'],
      tokenEndpointAuthMethod: 'none',
    });
    return {
      id,
      issuer: `${server.baseUrl}/realms/${id}`,
      person: { id: person.id as string, username },
      web: { clientId: web.client.clientId as string, secret: web.clientSecret as string },
      device: { clientId: device.client.clientId as string },
    };
  }

  const insecure = { execute: [oidc.allowInsecureRequests] };
  const webRp = (r: Realm) =>
    oidc.discovery(new URL(r.issuer), r.web.clientId, { client_secret: r.web.secret }, oidc.ClientSecretBasic(r.web.secret), insecure);
  const deviceRp = (r: Realm) => oidc.discovery(new URL(r.issuer), r.device.clientId, {}, oidc.None(), insecure);

  /** Waits until the RP received a request to `path` with this state. */
  async function arrival(path: string, state: string): Promise<URL> {
    const hit = () => rp.hits.find((u) => u.pathname === path && u.searchParams.get('state') === state);
    await expect.poll(() => Boolean(hit())).toBe(true);
    return hit()!;
  }

  /** openid-client's authorization request, followed in Chromium through sign-in and consent. */
  async function codeFlow(page: Page, r: Realm, cfg: oidc.Configuration, o: { signIn: boolean; shots?: boolean }) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(cfg, {
      redirect_uri: `${rp.base}/cb`,
      scope: 'openid profile email offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    await page.goto(url.href);
    if (o.signIn) {
      await page.waitForURL('**/user/loginSSO?**');
      if (o.shots) await screenshot(page, 'sign-in');
      await signIn(page, r.person.username, PASSWORD);
      // consent once per person and client (the record is kept, AS-28): later sign-ins go straight back
      await page.waitForURL((u) => u.pathname === '/user/consent' || u.href.startsWith(`${rp.base}/cb?`));
      if (new URL(page.url()).pathname === '/user/consent') {
        await page.locator('[data-testid=consent-approve]').waitFor();
        if (o.shots) await screenshot(page, 'consent');
        await page.locator('[data-testid=consent-approve]').click();
      }
    }
    await page.waitForURL(`${rp.base}/cb?**`);
    const back = await arrival('/cb', state);
    const tokens = await oidc.authorizationCodeGrant(cfg, back, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    return { tokens, nonce };
  }

  async function context(): Promise<{ ctx: BrowserContext; page: Page }> {
    const ctx = await browser.newContext({ locale: 'en-US', baseURL: server.baseUrl, viewport: { width: 1280, height: 860 } });
    const { page } = await newWatchedPage(ctx);
    return { ctx, page };
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startServer();
    rp = await startRp();
    const login = await fetch(`${server.baseUrl}/api/users/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
    });
    adminToken = ((await login.json()) as { data: { token: string } }).data.token;
    realms.push(await makeRealm(1), await makeRealm(2));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await server?.stop();
  });

  it('both realms: discovery, code + PKCE through the sign-in and consent screens, ID token validated, userinfo, refresh rotation, introspection, revocation', async () => {
    for (const [n, r] of realms.entries()) {
      const cfg = await webRp(r);
      expect(cfg.serverMetadata().issuer).toBe(r.issuer);
      const { ctx, page } = await context();
      const { tokens, nonce } = await codeFlow(page, r, cfg, { signIn: true, shots: n === 0 });
      expect(tokens.claims()).toMatchObject({ iss: r.issuer, sub: r.person.id, nonce, email: `${r.person.username}@example.test` });
      expect(await oidc.fetchUserInfo(cfg, tokens.access_token, r.person.id)).toMatchObject({ sub: r.person.id, preferred_username: r.person.username });

      const rotated = await oidc.refreshTokenGrant(cfg, tokens.refresh_token!);
      expect(rotated.refresh_token).toBeTruthy();
      expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
      expect(rotated.claims()?.sub).toBe(r.person.id);
      expect(await oauthError(oidc.refreshTokenGrant(cfg, tokens.refresh_token!))).toBe('invalid_grant');

      const fresh = await codeFlow(page, r, cfg, { signIn: false });
      expect(await oidc.tokenIntrospection(cfg, fresh.tokens.access_token)).toMatchObject({ active: true, sub: r.person.id, client_id: r.web.clientId });
      await oidc.tokenRevocation(cfg, fresh.tokens.access_token);
      expect((await oidc.tokenIntrospection(cfg, fresh.tokens.access_token)).active).toBe(false);
      await ctx.close();
    }
  });

  it('a token of realm A is refused at realm B: userinfo invalid_token, introspection inactive', async () => {
    const [a, b] = realms as [Realm, Realm];
    const [ca, cb] = await Promise.all([webRp(a), webRp(b)]);
    const { ctx, page } = await context();
    const { tokens } = await codeFlow(page, a, ca, { signIn: true });
    expect(await oauthError(oidc.fetchUserInfo(cb, tokens.access_token, a.person.id))).toBe('invalid_token');
    expect((await oidc.tokenIntrospection(cb, tokens.access_token)).active).toBe(false);
    expect((await oidc.tokenIntrospection(ca, tokens.access_token)).active).toBe(true);
    await ctx.close();
  });

  it('RP-initiated logout: Chromium follows the end-session URL back to the RP with its state; the SSO session is over', async () => {
    const r = realms[1]!;
    const cfg = await webRp(r);
    const { ctx, page } = await context();
    const { tokens } = await codeFlow(page, r, cfg, { signIn: true });
    const state = `bye-${RUN}`;
    await page.goto(oidc.buildEndSessionUrl(cfg, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${rp.base}/logged-out`, state }).href);
    await page.waitForURL(`${rp.base}/logged-out?**`);
    await arrival('/logged-out', state);

    // prompt=none: the provider no longer knows this browser
    const silentState = oidc.randomState();
    await page.goto(
      oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: `${rp.base}/cb`,
        scope: 'openid',
        prompt: 'none',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        state: silentState,
      }).href,
    );
    const back = await arrival('/cb', silentState);
    expect(back.searchParams.get('error')).toBe('login_required');
    expect(back.searchParams.get('code')).toBeNull();
    await ctx.close();
  });

  it('device grant: openid-client polls while the person opens the verification URI in Chromium, signs in and approves the code', async () => {
    const r = realms[0]!;
    const cfg = await deviceRp(r);
    const started = await oidc.initiateDeviceAuthorization(cfg, { scope: 'openid profile offline_access' });
    // the realm travels in the URI for a realm other than master
    expect(started.verification_uri).toBe(`${server.baseUrl}/device?realm_id=${r.id}`);
    const polling = oidc.pollDeviceAuthorizationGrant(cfg, started);
    const { ctx, page } = await context();
    await page.goto(started.verification_uri_complete!);
    await page.waitForURL('**/user/loginSSO?**').catch(async (err) => {
      await screenshot(page, 'device-lost');
      throw new Error(`not sent to sign in: at ${page.url()}`, { cause: err });
    });
    await signIn(page, r.person.username, PASSWORD);
    await page.waitForURL('**/device**').catch(async (err) => {
      await screenshot(page, 'device-after-sign-in');
      throw new Error(`not back at /device: at ${page.url()}`, { cause: err });
    });
    await page.locator('[data-testid=device-review]').waitFor();
    expect(await page.locator('[data-testid=device-code]').textContent()).toBe(started.user_code);
    await screenshot(page, 'device-review');
    await page.locator('[data-testid=device-approve]').click();
    await page.locator('[data-testid=device-approved]').waitFor();
    const tokens = await polling;
    expect(tokens.claims()).toMatchObject({ iss: r.issuer, sub: r.person.id, aud: r.device.clientId });
    expect((await oidc.fetchUserInfo(cfg, tokens.access_token, r.person.id)).preferred_username).toBe(r.person.username);
    // the device client is registered for refresh_token: a token comes, and it rotates
    expect(tokens.refresh_token).toBeTruthy();
    expect((await oidc.refreshTokenGrant(cfg, tokens.refresh_token!)).refresh_token).not.toBe(tokens.refresh_token);
    await ctx.close();
  });
});
