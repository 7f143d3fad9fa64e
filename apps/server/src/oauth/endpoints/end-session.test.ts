/**
 * RP-initiated logout through the real app, on both databases (A-26, AS-27): redirects only to
 * a registered post_logout_redirect_uri and only for a verified id_token_hint of the signed-in
 * user; otherwise our confirmation page, whose form token is bound to the session; after
 * sign-out, prompt=none is login_required.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { createPerson, createRealm } from '../../test/kit.js';
import { authorizePath, codeRequest, idToken, makeClient, queryOf, raw, signInThroughConsole } from '../test/authorize.testkit.js';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describeBothDbs('RP-initiated logout', (h) => {
  const logout = (realmId: string, params: Record<string, string>) => `/realms/${realmId}/oauth/logout?${new URLSearchParams(params).toString()}`;

  async function signedIn() {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm, { postLogoutRedirectUris: ['https://app.test/bye'] });
    const user = await createPerson(h(), { realmId: realm });
    const { sso } = await signInThroughConsole(h(), client, user);
    const hint = await idToken(h(), realm, { sub: user.id, aud: client.clientId });
    return { realm, client, user, sso: sso!, hint };
  }
  const stillSignedIn = async (realm: string, client: { clientId: string; redirectUris: string[] }, sso: string) => {
    const res = await raw(h(), 'GET', authorizePath(realm, codeRequest(client as never, { prompt: 'none' })), { sso });
    return queryOf(res.location).code !== undefined;
  };

  it('A-26 a valid hint of the signed-in user and a registered URI: session ended, cookie cleared, 303 with state; then prompt=none → login_required', async () => {
    const { realm, client, sso, hint } = await signedIn();
    expect(await stillSignedIn(realm, client, sso)).toBe(true);
    for (const method of ['GET', 'POST'] as const) {
      const params = { id_token_hint: hint, post_logout_redirect_uri: 'https://app.test/bye', state: 'st' };
      const res =
        method === 'GET'
          ? await raw(h(), 'GET', logout(realm, params), { sso })
          : await raw(h(), 'POST', `/realms/${realm}/oauth/logout`, { sso, form: params });
      expect(res.status, method).toBe(303);
      expect(res.location).toBe('https://app.test/bye?state=st');
      expect(res.cookies.find((c) => c.name === 'umbo_sso')).toMatchObject({ value: '', path: `/realms/${realm}/` });
    }
    const after = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { prompt: 'none' })), { sso });
    expect(queryOf(after.location)).toMatchObject({ error: 'login_required', state: 'st-123' });
  });

  it('A-26 an expired hint is still accepted (RP-Initiated Logout §2); without a redirect URI the signed-out page', async () => {
    const { realm, client, user, sso } = await signedIn();
    const old = await idToken(h(), realm, { sub: user.id, aud: client.clientId });
    h().clock.advance(2 * 3600 * 1000);
    const res = await raw(h(), 'GET', logout(realm, { id_token_hint: old }), { sso });
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are signed out');
    expect(await stillSignedIn(realm, client, sso)).toBe(false);
  });

  it('A-26 unregistered, query-appended, prefixed URIs and forged hints: no redirect, session kept', async () => {
    const { realm, client, user, sso, hint } = await signedIn();
    const other = await createRealm(h());
    const [header, payload] = hint.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const cases: [string, Record<string, string>][] = [
      ['unregistered', { id_token_hint: hint, post_logout_redirect_uri: 'https://evil.test/' }],
      ['query appended', { id_token_hint: hint, post_logout_redirect_uri: 'https://app.test/bye?x=1' }],
      ['trailing slash', { id_token_hint: hint, post_logout_redirect_uri: 'https://app.test/bye/' }],
      ['alg none', { id_token_hint: `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`, post_logout_redirect_uri: 'https://app.test/bye' }],
      [
        'tampered payload',
        { id_token_hint: `${header}.${b64({ ...claims, sub: 'someone' })}.${hint.split('.')[2]}`, post_logout_redirect_uri: 'https://app.test/bye' },
      ],
      [
        'signed by another realm',
        { id_token_hint: await idToken(h(), other, { sub: user.id, aud: client.clientId }), post_logout_redirect_uri: 'https://app.test/bye' },
      ],
      ['garbage', { id_token_hint: 'x.y.z', post_logout_redirect_uri: 'https://app.test/bye' }],
      ['client_id disagrees', { id_token_hint: hint, client_id: 'other', post_logout_redirect_uri: 'https://app.test/bye' }],
      ['URI without any client', { post_logout_redirect_uri: 'https://app.test/bye' }],
    ];
    for (const [name, params] of cases) {
      const res = await raw(h(), 'GET', logout(realm, params), { sso });
      expect(res.status, name).toBe(400);
      expect(res.location, name).toBeUndefined();
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    expect(await stillSignedIn(realm, client, sso)).toBe(true);
  });

  it('A-26 no hint: a confirmation page (no redirect, nothing ended); its form ends exactly that session, then the registered URI', async () => {
    const { realm, client, sso } = await signedIn();
    const page = await raw(h(), 'GET', logout(realm, { client_id: client.clientId, post_logout_redirect_uri: 'https://app.test/bye', state: 's1' }), { sso });
    expect(page.status).toBe(200);
    expect(page.location).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("form-action 'self' https://app.test");
    expect(await stillSignedIn(realm, client, sso)).toBe(true);
    const confirm = /name="confirm" value="([^"]+)"/.exec(page.text)![1]!;

    // another browser's session is not ended by this token
    const stranger = await signedIn();
    const foreign = await raw(h(), 'POST', `/realms/${realm}/oauth/logout`, { sso: stranger.sso, form: { confirm } });
    expect(foreign.status).toBe(303);
    expect(await stillSignedIn(stranger.realm, stranger.client, stranger.sso)).toBe(true);
    // a forged token: refused
    expect((await raw(h(), 'POST', `/realms/${realm}/oauth/logout`, { sso, form: { confirm: 'v1.a.b.c' } })).status).toBe(400);

    const done = await raw(h(), 'POST', `/realms/${realm}/oauth/logout`, { sso, form: { confirm } });
    expect(done.status).toBe(303);
    expect(done.location).toBe('https://app.test/bye?state=s1');
    expect(await stillSignedIn(realm, client, sso)).toBe(false);
  });

  it('a valid hint of ANOTHER user than the browser’s: confirmation first, not an immediate sign-out', async () => {
    const { realm, client, sso } = await signedIn();
    const someoneElse = await createPerson(h(), { realmId: realm });
    const hint = await idToken(h(), realm, { sub: someoneElse.id, aud: client.clientId });
    const res = await raw(h(), 'GET', logout(realm, { id_token_hint: hint, post_logout_redirect_uri: 'https://app.test/bye' }), { sso });
    expect(res.status).toBe(200);
    expect(res.text).toContain('name="confirm"');
    expect(await stillSignedIn(realm, client, sso)).toBe(true);
    expect((await raw(h(), 'GET', logout('no-such-realm', {}))).status).toBe(404);
  });
});
