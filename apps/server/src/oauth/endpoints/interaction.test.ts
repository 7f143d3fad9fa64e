/**
 * The console's side of an OAuth sign-in through the real app, on both databases: the
 * challenge, the SSO cookie (A-36), prompt=none / prompt=login / max_age (A-10), consent
 * stored and listed (AS-28), and SPEC §2's callback_uri door (AS-03: registered URIs only).
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, createPerson, createRealm, issueSession } from '../../test/kit.js';
import { authorizePath, challengeOf, codeRequest, makeClient, queryOf, raw, signInThroughConsole } from '../test/authorize.testkit.js';

const INFO = '/api/users/oauth/interaction';
const LOGIN = '/api/users/oauth/interaction/login';
const CONSENT = '/api/users/oauth/interaction/consent';
const CALLBACK = '/api/users/oauth/interaction/callback';

describeBothDbs('OAuth sign-in interaction, consent and callback_uri links', (h) => {
  const issuer = (realmId: string) => `http://umbo.test/realms/${realmId}`;
  const codeRow = (code: string) => h().ctx.repos.oauthCodes.find(h().ctx.secrets.hash('oauth-code', code));

  it('no session → /user/loginSSO with a challenge; info is public and shows the client; login sets an HttpOnly SSO cookie and answers the code', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm, {
      loginTips: '<b>Use your work account</b>',
      loginUrl: 'https://app.test/',
      registUrl: 'https://app.test/join',
    });
    const user = await createPerson(h(), { realmId: realm });
    const first = await raw(h(), 'GET', authorizePath(realm, codeRequest(client)));
    expect(first.status).toBe(303);
    const loc = new URL(first.location!);
    expect(loc.origin + loc.pathname).toBe('http://umbo.test/user/loginSSO');
    expect(loc.searchParams.get('realm_id')).toBe(realm);
    expect(loc.searchParams.get('client_id')).toBe(client.clientId);
    const challenge = challengeOf(first.location);
    // the challenge is sealed: neither the state nor the redirect URI can be read from it
    expect(challenge).not.toContain('app.test');

    const info = await as(h()).get(`${INFO}?challenge=${encodeURIComponent(challenge)}`);
    expect(info.body.data).toEqual({
      realmId: realm,
      clientId: client.clientId,
      clientName: client.name,
      loginTips: '<b>Use your work account</b>',
      loginUrl: 'https://app.test/',
      registUrl: 'https://app.test/join',
      scopes: ['openid', 'profile'],
      consentRequired: false,
      forceLogin: false,
      stage: 'login',
      expiresAt: h().clock.now() + 600_000,
    });

    const token = await issueSession(h(), user);
    const res = await as(h(), token).post(LOGIN, { challenge });
    expect(res.status).toBe(200);
    expect(res.body.data.next).toBe('redirect');
    const q = queryOf(res.body.data.redirectTo);
    expect(res.body.data.redirectTo.startsWith('https://app.test/cb?code=')).toBe(true);
    expect(q).toMatchObject({ state: 'st-123', iss: issuer(realm) });
    const sso = res.cookies.find((c) => c.name === 'umbo_sso')!;
    expect(sso).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: `/realms/${realm}/` });
    expect(sso.secure).toBeFalsy(); // http://umbo.test: Secure only over https
    const row = await codeRow(q.code!);
    expect(row).toMatchObject({ account_id: user.id, client_ref: client.id });
    // sid = the SSO session, auth_time = the console sign-in's time
    const ssoSession = await h().ctx.repos.sessions.findSessionById(realm, row!.sid!);
    expect(ssoSession?.account_id).toBe(user.id);
    const consoleSession = await h().ctx.services.sessions.authenticate(token);
    expect(Number(row!.auth_time)).toBe(Number(consoleSession!.session.created_at));

    // garbage, expired (fake clock +10 min) and foreign-realm challenges
    expect((await as(h()).get(`${INFO}?challenge=v1.abc.def.ghi`)).body.code).toBe(1080);
    h().clock.advance(600_001);
    expect((await as(h(), token).post(LOGIN, { challenge })).body.code).toBe(1080);
    expect((await as(h()).post(LOGIN, { challenge })).status).toBe(401);

    // signing out of the console drops the SSO cookie of this realm's provider in the browser too
    const out = await as(h(), token).post('/api/users/auth/logout', {});
    expect(out.status).toBe(200);
    expect(out.cookies.find((c) => c.name === 'umbo_sso')).toMatchObject({ value: '', path: `/realms/${realm}/`, httpOnly: true });
  });

  it('a request at its size limits (state 2048, nonce 512, a long redirect URI) still makes a usable challenge', async () => {
    const realm = await createRealm(h());
    const long = `https://app.test/${'p'.repeat(1900)}`;
    const client = await makeClient(h(), realm, { redirectUris: [long] });
    const user = await createPerson(h(), { realmId: realm });
    const state = 'ü"\\'.repeat(682) + 'ab';
    const params = codeRequest(client, { redirect_uri: long, state, nonce: 'n'.repeat(512) });
    const challenge = challengeOf((await raw(h(), 'GET', authorizePath(realm, params))).location);
    expect((await as(h()).get(`${INFO}?challenge=${encodeURIComponent(challenge)}`)).status).toBe(200);
    const res = await as(h(), await issueSession(h(), user)).post(LOGIN, { challenge });
    expect(queryOf(res.body.data.redirectTo).state).toBe(state);
  });

  it('the console session must be of the request’s realm (1082), and the client still enabled (1084)', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const stranger = await createPerson(h(), { realmId: await createRealm(h()) });
    const challenge = challengeOf((await raw(h(), 'GET', authorizePath(realm, codeRequest(client)))).location);
    const res = await as(h(), await issueSession(h(), stranger)).post(LOGIN, { challenge });
    expect(res.body).toMatchObject({ code: 1082, errData: { realmId: realm } });
    expect(res.cookies.find((c) => c.name === 'umbo_sso')).toBeUndefined();
    await h().ctx.repos.clients.update(realm, client.id, { disabled: true }, h().clock.now());
    const user = await createPerson(h(), { realmId: realm });
    expect((await as(h(), await issueSession(h(), user)).post(LOGIN, { challenge })).body.code).toBe(1084);
  });

  it('A-10 prompt=none without a session → login_required with state and iss; with a session but no consent → consent_required', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm, { consentRequired: true });
    const res = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { prompt: 'none' })));
    expect(res.status).toBe(303);
    expect(res.location!.startsWith('https://app.test/cb?')).toBe(true);
    expect(queryOf(res.location)).toEqual({ error: 'login_required', error_description: expect.any(String), state: 'st-123', iss: issuer(realm) });

    const user = await createPerson(h(), { realmId: realm });
    const { res: login, sso } = await signInThroughConsole(h(), client, user);
    expect(login.body.data.next).toBe('consent');
    const passive = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { prompt: 'none' })), { sso });
    expect(queryOf(passive.location)).toMatchObject({ error: 'consent_required', state: 'st-123', iss: issuer(realm) });
    // once consented, prompt=none gets a code
    const again = await signInThroughConsole(h(), client, user);
    const approved = await as(h(), again.consoleToken).post(CONSENT, { challenge: again.res.body.data.challenge, approve: true });
    expect(approved.body.data.next).toBe('redirect');
    const silent = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { prompt: 'none' })), { sso: again.sso });
    expect(Object.keys(queryOf(silent.location)).sort()).toEqual(['code', 'iss', 'state']);
  });

  it('A-10 max_age=0 and prompt=login force a new sign-in: the old console session is refused (1081), a newer one gets a code with a later auth_time', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const user = await createPerson(h(), { realmId: realm });
    const { sso, consoleToken } = await signInThroughConsole(h(), client, user);
    const firstAuth = Number((await h().ctx.services.sessions.authenticate(consoleToken))!.session.created_at);
    h().clock.advance(5_000);
    // with max_age 3600 the SSO session is recent enough: a code at once, auth_time = the first sign-in
    const recent = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { max_age: '3600' })), { sso });
    expect(Number((await codeRow(queryOf(recent.location).code!))!.auth_time)).toBe(firstAuth);

    for (const extra of [{ max_age: '0' }, { prompt: 'login' }, { max_age: '2' }] as Record<string, string>[]) {
      const res = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, extra)), { sso });
      const challenge = challengeOf(res.location);
      const info = await as(h()).get(`${INFO}?challenge=${encodeURIComponent(challenge)}`);
      expect(info.body.data.forceLogin).toBe(true);
      expect((await as(h(), consoleToken).post(LOGIN, { challenge })).body.code, JSON.stringify(extra)).toBe(1081);
      h().clock.advance(1_000);
      const fresh = await issueSession(h(), user);
      const ok = await as(h(), fresh).post(LOGIN, { challenge });
      const row = await codeRow(queryOf(ok.body.data.redirectTo).code!);
      expect(Number(row!.auth_time)).toBeGreaterThan(firstAuth);
      expect(Number(row!.auth_time)).toBe(h().clock.now());
    }
  });

  it('AS-28 consent: asked when the client wants it; approve → recorded, audited, listed, the code; deny → access_denied; prompt=consent asks again', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm, { consentRequired: true });
    const user = await createPerson(h(), { realmId: realm });
    const { res, consoleToken, sso } = await signInThroughConsole(h(), client, user, codeRequest(client, { scope: 'openid email' }));
    expect(res.body.data).toEqual({ next: 'consent', challenge: expect.any(String) });
    const consentChallenge = res.body.data.challenge as string;
    const info = await as(h()).get(`${INFO}?challenge=${encodeURIComponent(consentChallenge)}`);
    expect(info.body.data).toMatchObject({ stage: 'consent', scopes: ['openid', 'email'], consentRequired: true });
    // a consent challenge is not a login challenge, and belongs to its user
    expect((await as(h(), consoleToken).post(LOGIN, { challenge: consentChallenge })).body.code).toBe(1080);
    const other = await createPerson(h(), { realmId: realm });
    expect((await as(h(), await issueSession(h(), other)).post(CONSENT, { challenge: consentChallenge, approve: true })).body.code).toBe(1080);

    const denied = await as(h(), consoleToken).post(CONSENT, { challenge: consentChallenge, approve: false });
    expect(queryOf(denied.body.data.redirectTo)).toMatchObject({ error: 'access_denied', state: 'st-123', iss: issuer(realm) });
    expect(await h().ctx.repos.oauthConsents.find(user.id, client.id)).toBeUndefined();

    const approved = await as(h(), consoleToken).post(CONSENT, { challenge: consentChallenge, approve: true });
    expect(Object.keys(queryOf(approved.body.data.redirectTo)).sort()).toEqual(['code', 'iss', 'state']);
    expect(await h().ctx.repos.oauthConsents.find(user.id, client.id)).toMatchObject({ realm_id: realm, scope: 'openid email' });
    const listed = await h().ctx.repos.oauthConsents.listByAccount(user.id);
    expect(listed.map((r) => [r.client_id, r.client_name])).toEqual([[client.clientId, client.name]]);
    const events = await h().dbh.db.selectFrom('audit_events').select(['action', 'detail']).where('realm_id', '=', realm).execute();
    expect(events.map((e) => e.action).sort()).toEqual(['oauth.consent.denied', 'oauth.consent.granted']);

    // covered now: no question; a wider scope asks again; prompt=consent always asks
    const covered = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { scope: 'openid' })), { sso });
    expect(queryOf(covered.location).code).toBeDefined();
    for (const extra of [{ scope: 'openid phone' }, { scope: 'openid', prompt: 'consent' }] as Record<string, string>[]) {
      const asked = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, extra)), { sso });
      expect(new URL(asked.location!).pathname, JSON.stringify(extra)).toBe('/user/loginSSO');
    }
    // once the SSO session is gone, its consent step is refused
    const fresh = await signInThroughConsole(h(), client, user, codeRequest(client, { scope: 'openid phone' }));
    const freshSso = await h().ctx.services.sessions.authenticate(fresh.sso!);
    await h().ctx.repos.sessions.revokeSession(realm, freshSso!.session.id, h().clock.now());
    expect((await as(h(), fresh.consoleToken).post(CONSENT, { challenge: fresh.res.body.data.challenge, approve: true })).body.code).toBe(1081);
  });

  it('callback_uri links: a code only for a URI the confidential client registered; anything else 1083 and never a URL', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm, { redirectUris: ['https://app.test/cb', 'https://app.test/legacy'] });
    const pub = await makeClient(h(), realm, { tokenEndpointAuthMethod: 'none', secretHash: null });
    const user = await createPerson(h(), { realmId: realm });
    const token = await issueSession(h(), user);
    const body = { client_id: client.clientId, callback_uri: 'https://app.test/legacy', state: 'xyz', realm_id: realm };
    const res = await as(h(), token).post(CALLBACK, body);
    expect(res.body.data.next).toBe('redirect');
    expect(res.body.data.redirectTo.startsWith('https://app.test/legacy?code=')).toBe(true);
    const q = queryOf(res.body.data.redirectTo);
    expect(q).toMatchObject({ state: 'xyz', iss: issuer(realm) });
    expect(await codeRow(q.code!)).toMatchObject({ redirect_uri: 'https://app.test/legacy', scope: 'openid profile', code_challenge: null });
    expect(res.cookies.find((c) => c.name === 'umbo_sso')).toBeDefined();

    for (const [name, patch] of [
      ['unregistered', { callback_uri: 'https://evil.test/cb' }],
      ['prefix', { callback_uri: 'https://app.test/legacy/x' }],
      ['extra query', { callback_uri: 'https://app.test/legacy?x=1' }],
      ['case', { callback_uri: 'https://APP.test/legacy' }],
      ['unknown client', { client_id: 'nope' }],
      ['public client', { client_id: pub.clientId, callback_uri: 'https://app.test/cb' }],
      ['another realm', { realm_id: await createRealm(h()) }],
    ] as const) {
      const refused = await as(h(), token).post(CALLBACK, { ...body, ...patch });
      expect(refused.body.code, name).toBe(1083);
      expect(JSON.stringify(refused.body), name).not.toContain('evil.test');
    }
    expect((await as(h()).post(CALLBACK, body)).status).toBe(401);
  });
});

describeBothDbs(
  'OAuth sign-in served over https',
  (h) => {
    it('A-36 the SSO cookie is Secure, HttpOnly, SameSite=Lax, scoped to the realm; iss and the sign-in page use the https URL', async () => {
      const realm = await createRealm(h());
      const client = await makeClient(h(), realm);
      const user = await createPerson(h(), { realmId: realm });
      const first = await raw(h(), 'GET', authorizePath(realm, codeRequest(client)));
      expect(first.location!.startsWith('https://idp.test/user/loginSSO?')).toBe(true);
      const { res, ssoCookie } = await signInThroughConsole(h(), client, user);
      expect(ssoCookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: `/realms/${realm}/` });
      expect(ssoCookie!.maxAge).toBeGreaterThan(0);
      expect(queryOf(res.body.data.redirectTo).iss).toBe(`https://idp.test/realms/${realm}`);
      // the SSO token is stored as a keyed hash only
      const sessions = JSON.stringify(await h().dbh.db.selectFrom('sessions').selectAll().execute());
      expect(sessions).not.toContain(ssoCookie!.value);
    });
  },
  { PUBLIC_URL: 'https://idp.test' },
);
