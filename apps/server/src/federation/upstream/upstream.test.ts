/**
 * Issue 14 "Tests": sign-in through a realm's upstream OpenID provider, over HTTP against a
 * listening umbo, on SQLite and PostgreSQL. The upstream is oidc-provider (a certified
 * provider we did not write) and, for answers it will not produce, a hand-made one whose ID
 * tokens are wrong in one way at a time. Afterwards an openid-client relying party of our
 * realm completes code + PKCE for the brokered user.
 */
import crypto from 'node:crypto';
import { clientCreateBody } from '@umbo/contracts';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../oauth/interop/interop.testkit.js';
import { createHarness, DB_TARGETS, type DbTarget, type Harness } from '../../test/harness.js';
import { as, createPerson, createRealm, newRealmId, randomEmail } from '../../test/kit.js';
import type { StoredOAuth } from '../../realms/realm-settings.backend.js';
import { Browser, startFakeIdp, startOidcProvider, type FakeIdp, type Idp } from './upstream.testkit.js';

interface Env {
  h: Harness;
  base: string;
  idp: Idp;
  fake: FakeIdp;
  /** oidc-provider upstream, linking by verified e-mail off (the default) */
  plain: string;
  /** oidc-provider upstream, linking by verified e-mail on */
  linking: string;
  /** the hand-made upstream */
  faked: string;
}

const callbackOf = (base: string, realmId: string) => `${base}/api/federation/${realmId}/oidc/callback`;

function oauthGroup(h: Harness, wellKnown: string, clientID: string, secret: string, extra: Partial<StoredOAuth> = {}): StoredOAuth {
  return {
    isOIDC: true,
    clientID,
    clientSecret: h.ctx.secrets.encrypt(secret),
    loginEndpoint: 'https://unused.example.com/authorize',
    tokenEndpoint: 'https://unused.example.com/token',
    oidcWellknowEndpoint: wellKnown,
    accessTokenScope: 'openid email profile',
    redirectURIOverwrite: false,
    redirectURI: '',
    loginURI: '',
    displayName: 'Corp SSO',
    ...extra,
  };
}

async function setUp(target: DbTarget): Promise<Env & { dispose(): Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const h = await createHarness(target, { PUBLIC_URL: base });
  // openid-client checks iat/exp against the real clock
  h.clock.now = () => Date.now();
  await h.app.listen({ port, host: '127.0.0.1' });
  const [plain, linking, faked] = [newRealmId(), newRealmId(), newRealmId()];
  const idp = await startOidcProvider([callbackOf(base, plain), callbackOf(base, linking)]);
  const fake = await startFakeIdp();
  await createRealm(h, { oauth: oauthGroup(h, idp.wellKnown, idp.clientId, idp.clientSecret) }, plain);
  await createRealm(h, { oauth: oauthGroup(h, idp.wellKnown, idp.clientId, idp.clientSecret, { linkVerifiedEmail: true }) }, linking);
  await createRealm(h, { oauth: oauthGroup(h, fake.wellKnown, fake.clientId, 'fake-Secret-1') }, faked);
  return {
    h,
    base,
    idp,
    fake,
    plain,
    linking,
    faked,
    async dispose() {
      await idp.close();
      await fake.close();
      await h.dispose();
    },
  };
}

/** An upstream user of oidc-provider, who signs in next. */
function upstreamUser(e: Env, claims: { email?: string; email_verified?: boolean; preferred_username?: string } = {}): string {
  const sub = `up-${crypto.randomBytes(5).toString('hex')}`;
  e.idp.users.set(sub, claims);
  e.idp.next.sub = sub;
  return sub;
}

/** start → upstream (login, consent) → our callback: the browser, and the callback URL it was sent to. */
async function throughUpstream(e: Env, realmId: string, query = ''): Promise<{ browser: Browser; callback: string }> {
  const browser = new Browser();
  const callback = await browser.follow(`${e.base}/api/federation/${realmId}/oidc/start${query}`, e.base);
  return { browser, callback };
}

/** The console page the callback sends the browser to. */
async function landing(browser: Browser, callback: string): Promise<URL> {
  const r = await browser.get(callback);
  expect(r.status).toBe(303);
  return new URL(r.location!);
}

async function exchange(e: Env, ticket: string) {
  return as(e.h).post('/api/federation/oidc/exchange', { ticket });
}

/** The whole sign-in: the console token, the account signed in and the console URL landed on. */
async function signIn(e: Env, realmId: string, query = '') {
  const { browser, callback } = await throughUpstream(e, realmId, query);
  const page = await landing(browser, callback);
  const ticket = page.searchParams.get('upstream_ticket');
  if (!ticket) throw new Error(`no ticket: ${page.href}`);
  const res = await exchange(e, ticket);
  expect(res.status).toBe(200);
  return { token: res.body.data.token as string, userId: res.body.data.userId as string, page, ticket, browser, callback };
}

const linksOf = async (e: Env, realmId: string, accountId: string) =>
  (await as(e.h, await e.h.login()).get(`/api/users/realms/${realmId}/accounts/${accountId}/federated`)).body.data as {
    id: string;
    subject: string;
    issuer: string;
  }[];

async function accountCount(e: Env, realmId: string): Promise<number> {
  const rows = await e.h.ctx.db.selectFrom('accounts').select('id').where('realm_id', '=', realmId).execute();
  return rows.length;
}

/** A fresh start at the hand-made upstream: the browser, the callback's state and the nonce sent. */
async function fakeStart(e: Env) {
  const browser = new Browser();
  const r = await browser.get(`${e.base}/api/federation/${e.faked}/oidc/start`);
  const auth = new URL(r.location!);
  return { browser, state: auth.searchParams.get('state')!, nonce: auth.searchParams.get('nonce')! };
}

async function fakeCallback(e: Env, flaw: FakeIdp['token']['flaw'], extra: Partial<FakeIdp['token']> = {}) {
  const { browser, state, nonce } = await fakeStart(e);
  e.fake.token = { flaw, nonce, sub: `fake-${crypto.randomBytes(4).toString('hex')}`, ...extra };
  return landing(browser, `${callbackOf(e.base, e.faked)}?code=c-${crypto.randomBytes(4).toString('hex')}&state=${state}`);
}

const prevAllow = process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;

for (const target of DB_TARGETS) {
  describe(`upstream OpenID sign-in [${target.dialect}]`, () => {
    let env: (Env & { dispose(): Promise<void> }) | undefined;
    const e = () => env!;
    beforeAll(async () => {
      // the upstreams listen on 127.0.0.1: the operator's switch for private targets
      process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';
      env = await setUp(target);
    });
    afterAll(async () => {
      await env?.dispose();
      if (prevAllow === undefined) delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
      else process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = prevAllow;
    });

    it('start sends the browser to the upstream with code + PKCE S256, state, nonce, the realm scope and our redirect URI; the transaction cookie is HttpOnly and SameSite=Lax', async () => {
      const res = await fetch(`${e().base}/api/federation/${e().plain}/oidc/start`, { redirect: 'manual' });
      expect(res.status).toBe(303);
      const to = new URL(res.headers.get('location')!);
      expect(`${to.origin}`).toBe(e().idp.issuer);
      expect(Object.fromEntries(to.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: e().idp.clientId,
        redirect_uri: callbackOf(e().base, e().plain),
        scope: 'openid email profile',
        code_challenge_method: 'S256',
      });
      expect(to.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(to.searchParams.get('state')!.length).toBeGreaterThanOrEqual(32);
      expect(to.searchParams.get('nonce')!.length).toBeGreaterThanOrEqual(32);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('umbo_upstream='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toContain(`Path=/api/federation/${e().plain}/oidc`);
      // the PKCE verifier and the nonce are sealed, not readable in the cookie
      expect(cookie).not.toContain(to.searchParams.get('nonce')!);
    });

    it('the button: name and icon of a realm with OpenID sign-in; null for a realm without', async () => {
      expect((await as(e().h).get(`/api/federation/${e().plain}/oidc/button`)).body.data).toEqual({ button: { name: 'Corp SSO', icon: '' } });
      expect((await as(e().h).get('/api/federation/master/oidc/button')).body.data).toEqual({ button: null });
      const off = await fetch(`${e().base}/api/federation/master/oidc/start`, { redirect: 'manual' });
      expect(new URL(off.headers.get('location')!, e().base).searchParams.get('upstream_error')).toBe('1014');
    });

    it('first sign-in creates the account just in time, linked to (issuer, subject); the next one signs in to the same account; the session works', async () => {
      const sub = upstreamUser(e(), { preferred_username: `jit_${crypto.randomBytes(3).toString('hex')}`, email: randomEmail(), email_verified: true });
      const first = await signIn(e(), e().plain);
      expect(first.page.pathname).toBe('/user/loginSSO');
      expect(first.page.searchParams.get('realm_id')).toBe(e().plain);
      const me = await as(e().h, first.token).get('/api/users/account');
      expect(me.status).toBe(200);
      const account = await e().h.ctx.repos.accounts.findAccountById(e().plain, first.userId);
      expect(account).toMatchObject({ username: e().idp.users.get(sub)!.preferred_username, email: e().idp.users.get(sub)!.email, password_hash: null });
      expect(await linksOf(e(), e().plain, first.userId)).toMatchObject([{ issuer: e().idp.issuer, subject: sub }]);

      e().idp.next.sub = sub;
      const again = await signIn(e(), e().plain);
      expect(again.userId).toBe(first.userId);
      // the hand-over ticket is single use
      expect((await exchange(e(), first.ticket)).body).toMatchObject({ result: 'fail', code: 4006 });
    });

    it('the callback and the hand-over ticket are single use under 30 parallel tries each: one session, one account', async () => {
      upstreamUser(e(), { preferred_username: `race_${crypto.randomBytes(3).toString('hex')}` });
      const { browser, callback } = await throughUpstream(e(), e().plain);
      const landings = await Promise.all(Array.from({ length: 30 }, () => browser.get(callback)));
      const tickets = landings.map((r) => new URL(r.location!, e().base).searchParams.get('upstream_ticket')).filter((t): t is string => Boolean(t));
      expect(tickets).toHaveLength(1);
      const answers = await Promise.all(Array.from({ length: 30 }, () => exchange(e(), tickets[0]!)));
      const signedIn = answers.filter((r) => r.body.result === 'ok');
      expect(signedIn).toHaveLength(1);
      expect(answers.filter((r) => r.status >= 500)).toEqual([]);
      expect(await linksOf(e(), e().plain, signedIn[0]!.body.data.userId as string)).toHaveLength(1);
    });

    it('an OAuth client of the realm gets tokens for the brokered user: openid-client completes code + PKCE through our provider', async () => {
      const h = e().h;
      const created = await h.ctx.services.clients.create(
        { realmId: e().plain },
        { actor: null },
        clientCreateBody.parse({
          name: 'brokered rp',
          desc: 'an RP of the realm',
          authCodeMulitUse: false,
          tokenExpirSec: 600,
          refreshtokenExpirSec: 3600,
          refreshTokenRecreate: true,
          redirectUris: ['http://127.0.0.1/rp/cb'],
          grantTypes: ['authorization_code'],
          consentRequired: false,
        }),
      );
      const issuer = `${e().base}/realms/${e().plain}`;
      const cfg = await oidc.discovery(
        new URL(issuer),
        created.client.clientId,
        { client_secret: created.clientSecret! },
        oidc.ClientSecretBasic(created.clientSecret!),
        {
          execute: [oidc.allowInsecureRequests],
        },
      );
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const authUrl = oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: 'http://127.0.0.1/rp/cb',
        scope: 'openid profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      const authorize = await fetch(authUrl, { redirect: 'manual' });
      const challenge = new URL(authorize.headers.get('location')!).searchParams.get('challenge')!;
      expect(challenge).toBeTruthy();

      // the sign-in page's button carries the challenge through the upstream and back
      const sub = upstreamUser(e(), { preferred_username: `rp_${crypto.randomBytes(3).toString('hex')}` });
      const brokered = await signIn(e(), e().plain, `?challenge=${encodeURIComponent(challenge)}`);
      expect(brokered.page.searchParams.get('challenge')).toBe(challenge);
      const next = await as(h, brokered.token).post('/api/users/oauth/interaction/login', { challenge });
      expect(next.status).toBe(200);
      const tokens = await oidc.authorizationCodeGrant(cfg, new URL(next.body.data.redirectTo as string), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      expect(tokens.claims()).toMatchObject({ iss: issuer, sub: brokered.userId });
      expect((await linksOf(e(), e().plain, brokered.userId))[0]!.subject).toBe(sub);
    });

    it('wrong state: refused (1140), nothing created, and the transaction stays unspent', async () => {
      upstreamUser(e());
      const before = await accountCount(e(), e().plain);
      const { browser, callback } = await throughUpstream(e(), e().plain);
      const forged = new URL(callback);
      forged.searchParams.set('state', 'x'.repeat(43));
      const page = await landing(browser, forged.href);
      expect(page.searchParams.get('upstream_error')).toBe('1140');
      expect(page.searchParams.has('upstream_ticket')).toBe(false);
      expect(await accountCount(e(), e().plain)).toBe(before);
    });

    it("a callback without this browser's transaction cookie (login CSRF) is refused", async () => {
      upstreamUser(e());
      const { callback } = await throughUpstream(e(), e().plain);
      const page = await landing(new Browser(), callback);
      expect(page.searchParams.get('upstream_error')).toBe('1140');
    });

    it('replayed code: the same callback again is refused, and the code under a new transaction is refused by the upstream', async () => {
      upstreamUser(e());
      const { browser, callback } = await throughUpstream(e(), e().plain);
      const sealed = browser.cookie(new URL(e().base).host, 'umbo_upstream')!;
      expect((await landing(browser, callback)).searchParams.has('upstream_ticket')).toBe(true);
      // an attacker holding the old cookie and URL
      const replay = new Browser();
      replay.setCookie(new URL(e().base).host, 'umbo_upstream', sealed);
      expect((await landing(replay, callback)).searchParams.get('upstream_error')).toBe('1140');
      // the code with a fresh transaction (its own state): PKCE and single use at the upstream refuse it
      const fresh = new Browser();
      const started = await fresh.get(`${e().base}/api/federation/${e().plain}/oidc/start`);
      const state = new URL(started.location!).searchParams.get('state')!;
      const reused = new URL(callback);
      reused.searchParams.set('state', state);
      expect((await landing(fresh, reused.href)).searchParams.get('upstream_error')).toBe('1140');
    });

    it('the hand-made upstream, answering correctly: signed in (the negative cases below differ in one thing only)', async () => {
      const page = await fakeCallback(e(), 'none');
      expect(page.searchParams.get('upstream_ticket')).toBeTruthy();
    });

    for (const flaw of ['nonce', 'issuer', 'audience', 'key', 'expired'] as const) {
      it(`an ID token with the wrong ${flaw} is refused by openid-client (1140), no account`, async () => {
        const before = await accountCount(e(), e().faked);
        const page = await fakeCallback(e(), flaw);
        expect(page.searchParams.get('upstream_error')).toBe('1140');
        expect(page.searchParams.has('upstream_ticket')).toBe(false);
        expect(await accountCount(e(), e().faked)).toBe(before);
      });
    }

    it('an unverified e-mail matching a local account: no link to it — a new account without the address', async () => {
      const local = await createPerson(e().h, { realmId: e().linking, email: randomEmail() });
      upstreamUser(e(), { email: local.row.email!, email_verified: false });
      const res = await signIn(e(), e().linking);
      expect(res.userId).not.toBe(local.id);
      expect(await linksOf(e(), e().linking, local.id)).toEqual([]);
      expect((await e().h.ctx.repos.accounts.findAccountById(e().linking, res.userId))!.email).toBeNull();
    });

    it('a verified e-mail matching a local account: linked only where the realm allows it (off by default)', async () => {
      const offLocal = await createPerson(e().h, { realmId: e().plain, email: randomEmail() });
      upstreamUser(e(), { email: offLocal.row.email!, email_verified: true });
      const off = await signIn(e(), e().plain);
      expect(off.userId).not.toBe(offLocal.id);
      expect(await linksOf(e(), e().plain, offLocal.id)).toEqual([]);

      const onLocal = await createPerson(e().h, { realmId: e().linking, email: randomEmail() });
      const sub = upstreamUser(e(), { email: onLocal.row.email!, email_verified: true });
      const on = await signIn(e(), e().linking);
      expect(on.userId).toBe(onLocal.id);
      expect(await linksOf(e(), e().linking, onLocal.id)).toMatchObject([{ subject: sub }]);
    });

    it('administrators remove a link (person.edit): the identity then no longer signs in as that account', async () => {
      const sub = upstreamUser(e());
      const first = await signIn(e(), e().plain);
      const admin = await e().h.login();
      const [link] = await linksOf(e(), e().plain, first.userId);
      const url = `/api/users/realms/${e().plain}/accounts/${first.userId}/federated/${link!.id}`;
      expect((await as(e().h, first.token).delete(url)).status).toBe(403);
      expect((await as(e().h, admin).delete(url)).body).toMatchObject({ result: 'ok', data: { removed: true } });
      expect((await as(e().h, admin).delete(url)).body).toMatchObject({ result: 'fail', code: 1004 });
      expect(await linksOf(e(), e().plain, first.userId)).toEqual([]);
      e().idp.next.sub = sub;
      expect((await signIn(e(), e().plain)).userId).not.toBe(first.userId);
    });
  });
}

describe('A-37 upstream calls go through the guarded client', () => {
  it('an upstream on a private address is refused (1141) unless the operator allows private targets; the upstream sees no request', async () => {
    const target = DB_TARGETS[0]!;
    const saved = process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
    delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
    const h = await createHarness(target, { PUBLIC_URL: 'http://umbo.test' });
    if (saved !== undefined) process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = saved;
    const idp = await startOidcProvider(['http://umbo.test/cb']);
    try {
      const realmId = await createRealm(h, { oauth: oauthGroup(h, idp.wellKnown, idp.clientId, idp.clientSecret) });
      const res = await as(h).get(`/api/federation/${realmId}/oidc/start`);
      expect(res.status).toBe(303);
      expect(new URL(res.headers.location as string, 'http://umbo.test').searchParams.get('upstream_error')).toBe('1141');
      expect(idp.hits).toEqual([]);
    } finally {
      await idp.close();
      await h.dispose();
    }
  });
});
