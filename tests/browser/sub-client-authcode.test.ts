/**
 * /newauth/user_redirect_authcode_by_users_authcode in Chromium (SPEC §2 public route, §3
 * allowAuthCode; issue 12): a parent application sends the browser there with a user's access
 * token and its sub client's client_id; the browser arrives at the SUB client's registered
 * redirect URI (a loopback server here) with a code and the state, and the sub client redeems
 * the code for the same user. A bad token shows the error on the page and goes nowhere; the
 * token leaves the address bar before anything else.
 * Screenshots: test-results/browser/sub-client-authcode-*.png.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthClient } from '../../apps/server/src/clients/clients.repo.js';
import { newId, randomString } from '../../apps/server/src/platform/crypto.js';
import { assertPrerequisites, browserPresent, browserRequired, expectNoCspViolations, launchBrowser, newWatchedPage, screenshot } from './harness';
import { startInProcessServer, type InProcessServer } from './in-process';

function startApp(): Promise<{ port: number; hits: URL[]; close(): Promise<void> }> {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>sub app</title><h1>Sub app</h1></html>');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as AddressInfo).port, hits, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

describe.skipIf(!browserPresent && !browserRequired)('sub-client authorization code page in Chromium', () => {
  afterEach(expectNoCspViolations);
  let server: InProcessServer;
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startApp>>;
  let parent: OAuthClient;
  let sub: OAuthClient;
  let userId = '';

  const basic = (c: OAuthClient) => `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:secret`).toString('base64')}`;
  const token = (c: OAuthClient, form: Record<string, string>) =>
    fetch(`${server.baseUrl}/realms/master/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(c) },
      body: new URLSearchParams(form).toString(),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));

  async function makeClient(patch: Partial<OAuthClient>): Promise<OAuthClient> {
    const { ctx } = server;
    return ctx.repos.clients.insert(
      {
        id: newId(),
        realmId: 'master',
        clientId: `c${crypto.randomBytes(6).toString('hex')}`,
        parentId: null,
        ownerAccountId: null,
        name: 'browser app',
        description: 'sub-client page test',
        secretHash: ctx.secrets.hash('client-secret', 'secret'),
        tokenEndpointAuthMethod: 'client_secret_basic',
        jwks: null,
        redirectUris: ['https://parent.example.com/cb'],
        postLogoutRedirectUris: [],
        grantTypes: ['authorization_code', 'refresh_token'],
        scopes: ['openid', 'profile', 'email', 'phone', 'offline_access'],
        tokenExpirSec: 3600,
        refreshTokenExpirSec: 86400,
        refreshTokenRecreate: true,
        authCodeMultiUse: false,
        consentRequired: false,
        signingAlg: 'ES256',
        loginTips: '',
        loginUrl: '',
        registUrl: '',
        sourceRanges: [],
        allowAuthCode: false,
        allowToken: false,
        disabled: false,
        ...patch,
      },
      Date.now(),
    );
  }

  /** The parent's access token for the user, through a code redemption. */
  async function parentToken(): Promise<string> {
    const code = randomString(43);
    const now = Date.now();
    await server.ctx.repos.oauthCodes.insert({
      code_hash: server.ctx.secrets.hash('oauth-code', code),
      realm_id: 'master',
      client_ref: parent.id,
      account_id: userId,
      redirect_uri: parent.redirectUris[0]!,
      scope: 'openid profile',
      nonce: null,
      code_challenge: null,
      auth_time: now,
      sid: null,
      parent_family_id: null,
      created_at: now,
      expires_at: now + 60_000,
      used_at: null,
      family_id: null,
      response_sealed: null,
    });
    const res = await token(parent, { grant_type: 'authorization_code', code, redirect_uri: parent.redirectUris[0]! });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  }

  beforeAll(async () => {
    assertPrerequisites();
    server = await startInProcessServer();
    app = await startApp();
    parent = await makeClient({});
    sub = await makeClient({ parentId: parent.id, allowAuthCode: true, redirectUris: [`http://127.0.0.1:${app.port}/cb`] });
    const user = await server.ctx.repos.accounts.insertPerson({
      realmId: 'master',
      username: `sub${Date.now() % 100000}`,
      passwordHash: null,
      now: Date.now(),
    });
    userId = user.id;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.stop();
  });

  it("goes to the sub client's registered URI with a code the sub client redeems for the same user", async () => {
    const at = await parentToken();
    const { page } = await newWatchedPage(await browser.newContext({ locale: 'en-US', baseURL: server.baseUrl }));
    const q = new URLSearchParams({ client_id: sub.clientId, token: at, state: 'st-42' });
    await page.goto(`/newauth/user_redirect_authcode_by_users_authcode?${q.toString()}`);
    await page.waitForURL((u) => u.port === String(app.port), { timeout: 15_000 });
    await screenshot(page, 'sub-client-authcode-arrived');
    // (the browser may ask the app for its favicon too)
    const hit = app.hits.find((u) => u.pathname === '/cb')!;
    expect(hit.searchParams.get('state')).toBe('st-42');
    expect(hit.searchParams.get('iss')).toBe(`${server.baseUrl}/realms/master`);
    const code = hit.searchParams.get('code')!;
    const redeemed = await token(sub, { grant_type: 'authorization_code', code, redirect_uri: sub.redirectUris[0]! });
    expect(redeemed.status).toBe(200);
    const idToken = JSON.parse(Buffer.from(String(redeemed.body.id_token).split('.')[1]!, 'base64url').toString());
    expect(idToken.sub).toBe(userId);
    expect(idToken.aud).toBe(sub.clientId);
    await page.context().close();
  });

  it('a bad token: the error on the page, no redirect, and the token gone from the address bar', async () => {
    const { page } = await newWatchedPage(await browser.newContext({ locale: 'en-US', baseURL: server.baseUrl }));
    const before = app.hits.filter((u) => u.pathname === '/cb').length;
    await page.goto(`/newauth/user_redirect_authcode_by_users_authcode?client_id=${sub.clientId}&token=not.a.token&redirect_uri=https://evil.example.com/`);
    await page.getByTestId('authcode-error').waitFor();
    expect(page.url()).not.toContain('token=');
    expect(new URL(page.url()).host).toBe(new URL(server.baseUrl).host);
    expect(app.hits.filter((u) => u.pathname === '/cb').length).toBe(before);
    await screenshot(page, 'sub-client-authcode-refused');
    await page.context().close();
  });
});
