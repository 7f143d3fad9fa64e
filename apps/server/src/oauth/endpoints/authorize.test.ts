/**
 * The authorization endpoint through the real app, on both databases: what is shown on our
 * page and never redirected, what goes back to the client with state and iss
 * the headers, and a code for a browser with an SSO session.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { createPerson, createRealm } from '../../test/kit.js';
import { authorizePath, codeRequest, makeClient, pkcePair, queryOf, raw, signInThroughConsole } from '../test/authorize.testkit.js';

describeBothDbs('authorization endpoint: errors, PKCE, headers', (h) => {
  const issuer = (realmId: string) => `http://umbo.test/realms/${realmId}`;

  it('A-01 redirect_uri variants of a registered https://app.test/cb: a 400 page each, never a 3xx, never the URI in a Location', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm, { redirectUris: ['https://app.test/cb'] });
    const variants = [
      'https://app.test/cb/',
      'https://app.test/cb?x=1',
      'https://app.test/cb#f',
      'HTTPS://app.test/cb',
      'https://APP.test/cb',
      'https://app.test:443/cb',
      'https://app.test/cb/../x',
      'https://app.test/cb/%2e%2e/x',
      'https://app.test/cb/..;/x',
      'https://app.test.evil.test/cb',
      'https://app.test@evil.test/cb',
      'https://a@app.test@evil.test/cb',
      'https://app.test/CB',
      'https://app.test/c',
      'http://app.test/cb',
      ' https://app.test/cb',
    ];
    for (const redirect_uri of variants) {
      for (const method of ['GET', 'POST'] as const) {
        const params = codeRequest(client, { redirect_uri });
        const res =
          method === 'GET' ? await raw(h(), 'GET', authorizePath(realm, params)) : await raw(h(), 'POST', `/realms/${realm}/oauth/authorize`, { form: params });
        expect(res.status, `${method} ${redirect_uri}`).toBe(400);
        expect(res.location).toBeUndefined();
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).toContain('invalid_request');
      }
    }
    // the registered one itself passes this step (it goes to sign-in)
    const fine = await raw(h(), 'GET', authorizePath(realm, codeRequest(client)));
    expect(fine.status).toBe(303);
  });

  it('A-03 (matching side): a registered http://127.0.0.1/cb matches any port, only on the loopback literal and the same path', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm, { redirectUris: ['http://127.0.0.1/cb', 'http://[::1]:8080/cb'] });
    for (const ok of ['http://127.0.0.1/cb', 'http://127.0.0.1:53124/cb', 'http://[::1]/cb', 'http://[::1]:1/cb']) {
      expect((await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { redirect_uri: ok })))).status, ok).toBe(303);
    }
    for (const bad of [
      'http://127.0.0.1:53124/cb2',
      'http://127.0.0.1:0/cb',
      'http://127.0.0.1:65536/cb',
      'http://127.0.0.1:080/cb',
      'http://localhost:53124/cb',
      'http://127.0.0.2:53124/cb',
      'https://127.0.0.1:53124/cb',
      'http://127.0.0.1:1@evil.test/cb',
      'http://127.0.0.1.evil.test/cb',
    ]) {
      const res = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { redirect_uri: bad })));
      expect(res.status, bad).toBe(400);
      expect(res.location).toBeUndefined();
    }
  });

  it('A-02 unknown client_id, a disabled client, a missing or repeated client_id or redirect_uri: an error page, no redirect', async () => {
    const realm = await createRealm(h());
    const two = await makeClient(h(), realm, { redirectUris: ['https://app.test/cb', 'https://app.test/cb2'] });
    const one = await makeClient(h(), realm, { redirectUris: ['https://one.test/cb'] });
    const off = await makeClient(h(), realm, { disabled: true });
    const other = await makeClient(h(), await createRealm(h()));
    const cases: [string, string][] = [
      ['unknown client', authorizePath(realm, { response_type: 'code', client_id: 'nope', redirect_uri: 'https://evil.test/', scope: 'openid' })],
      ['client of another realm', authorizePath(realm, codeRequest(other))],
      ['disabled client', authorizePath(realm, codeRequest(off))],
      ['no client_id', authorizePath(realm, { response_type: 'code', redirect_uri: 'https://app.test/cb', scope: 'openid' })],
      ['two registered, none sent', authorizePath(realm, { response_type: 'code', client_id: two.clientId, scope: 'profile' })],
      ['OpenID request without redirect_uri', authorizePath(realm, { response_type: 'code', client_id: one.clientId, scope: 'openid' })],
      ['repeated client_id', `${authorizePath(realm, codeRequest(two))}&client_id=${two.clientId}`],
      ['repeated redirect_uri', `${authorizePath(realm, codeRequest(two))}&redirect_uri=${encodeURIComponent('https://app.test/cb2')}`],
    ];
    for (const [name, url] of cases) {
      const res = await raw(h(), 'GET', url);
      expect(res.status, name).toBe(400);
      expect(res.location, name).toBeUndefined();
    }
    // one registered URI, a plain OAuth request without redirect_uri: allowed (RFC 6749 §3.1.2.3)
    const omitted = await raw(h(), 'GET', authorizePath(realm, { response_type: 'code', client_id: one.clientId, scope: 'profile', state: 's' }));
    expect(omitted.status).toBe(303);
    // an unknown realm: 404 page
    const unknown = await raw(h(), 'GET', authorizePath('no-such-realm', codeRequest(one)));
    expect(unknown.status).toBe(404);
    expect(unknown.location).toBeUndefined();
  });

  it('A-08 (authorize side) PKCE: public client without challenge, plain, a method without challenge, a malformed challenge → invalid_request back to the client, no code', async () => {
    const realm = await createRealm(h());
    const pub = await makeClient(h(), realm, { tokenEndpointAuthMethod: 'none', secretHash: null });
    const conf = await makeClient(h(), realm);
    const { challenge } = pkcePair();
    const cases: [string, Record<string, string>][] = [
      ['public, no challenge', codeRequest(pub)],
      ['plain', codeRequest(pub, { code_challenge: challenge, code_challenge_method: 'plain' })],
      ['challenge without method (RFC 7636: plain)', codeRequest(conf, { code_challenge: challenge })],
      ['method without challenge', codeRequest(conf, { code_challenge_method: 'S256' })],
      ['42 characters', codeRequest(pub, { code_challenge: challenge.slice(0, 42), code_challenge_method: 'S256' })],
      ['44 characters', codeRequest(pub, { code_challenge: `${challenge}A`, code_challenge_method: 'S256' })],
      ['bad charset', codeRequest(pub, { code_challenge: `${challenge.slice(0, 42)}=`, code_challenge_method: 'S256' })],
      ['lower-case method', codeRequest(pub, { code_challenge: challenge, code_challenge_method: 's256' })],
    ];
    for (const [name, params] of cases) {
      const res = await raw(h(), 'GET', authorizePath(realm, params));
      expect(res.status, name).toBe(303);
      const q = queryOf(res.location);
      expect(res.location!.startsWith('https://app.test/cb?'), name).toBe(true);
      expect(q, name).toMatchObject({ error: 'invalid_request', state: 'st-123', iss: issuer(realm) });
      expect(q.code, name).toBeUndefined();
    }
    expect(await h().dbh.db.selectFrom('oauth_codes').selectAll().where('realm_id', '=', realm).execute()).toEqual([]);
    // a well-formed S256 challenge passes (on to sign-in)
    const good = await raw(h(), 'GET', authorizePath(realm, codeRequest(pub, { code_challenge: challenge, code_challenge_method: 'S256' })));
    expect(new URL(good.location!).pathname).toBe('/user/loginSSO');
  });

  it('A-11 response_type=token, "id_token token", "code id_token", missing → error back to the client, never a token', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    for (const [type, error] of [
      ['token', 'unsupported_response_type'],
      ['id_token token', 'unsupported_response_type'],
      ['code id_token', 'unsupported_response_type'],
      ['id_token', 'unsupported_response_type'],
    ] as const) {
      const res = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { response_type: type })));
      expect(res.status, type).toBe(303);
      expect(queryOf(res.location), type).toEqual({ error, error_description: expect.any(String), state: 'st-123', iss: issuer(realm) });
      expect(res.location).not.toMatch(/access_token|id_token=|#/);
    }
    const { response_type: _, ...noType } = codeRequest(client);
    expect(queryOf((await raw(h(), 'GET', authorizePath(realm, noType))).location).error).toBe('invalid_request');
    // response_mode other than query
    expect(queryOf((await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { response_mode: 'fragment' })))).location).error).toBe('invalid_request');
  });

  it('after the redirect URI is known: scope, prompt, max_age, grant, request objects, repeated parameters go back with state and iss', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm, { scopes: ['openid', 'profile'] });
    const noCode = await makeClient(h(), realm, { grantTypes: ['client_credentials'] });
    const cases: [string, string, string][] = [
      ['unknown scope', authorizePath(realm, codeRequest(client, { scope: 'openid admin' })), 'invalid_scope'],
      ['scope not allowed', authorizePath(realm, codeRequest(client, { scope: 'openid email' })), 'invalid_scope'],
      ['no scope', authorizePath(realm, { ...codeRequest(client), scope: '' }), 'invalid_scope'],
      ['prompt none+login', authorizePath(realm, codeRequest(client, { prompt: 'none login' })), 'invalid_request'],
      ['prompt unknown', authorizePath(realm, codeRequest(client, { prompt: 'everything' })), 'invalid_request'],
      ['max_age negative', authorizePath(realm, codeRequest(client, { max_age: '-1' })), 'invalid_request'],
      ['max_age text', authorizePath(realm, codeRequest(client, { max_age: 'soon' })), 'invalid_request'],
      ['no authorization_code grant', authorizePath(realm, codeRequest(noCode)), 'unauthorized_client'],
      ['request object', authorizePath(realm, codeRequest(client, { request: 'eyJ.x.y' })), 'request_not_supported'],
      ['request_uri', authorizePath(realm, codeRequest(client, { request_uri: 'https://evil.test/r' })), 'request_uri_not_supported'],
      ['repeated scope', `${authorizePath(realm, codeRequest(client))}&scope=openid`, 'invalid_request'],
      ['nonce too long', authorizePath(realm, codeRequest(client, { nonce: 'n'.repeat(513) })), 'invalid_request'],
    ];
    for (const [name, url, error] of cases) {
      const res = await raw(h(), 'GET', url);
      expect(res.status, name).toBe(303);
      expect(queryOf(res.location), name).toMatchObject({ error, state: 'st-123', iss: issuer(realm) });
    }
    // a repeated state is not echoed
    const twice = await raw(h(), 'GET', `${authorizePath(realm, codeRequest(client))}&state=other`);
    expect(queryOf(twice.location)).toEqual({ error: 'invalid_request', error_description: 'state is repeated', iss: issuer(realm) });
  });

  it('A-12 headers: CSP frame-ancestors none, X-Frame-Options DENY, no-referrer on the page, the redirect and the sign-in redirect; 303 never 307; no CORS for Origin evil', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const origin = { origin: 'https://evil.test' };
    const answers = [
      await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { redirect_uri: 'https://evil.test/' })), { headers: origin }),
      await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { scope: 'bogus' })), { headers: origin }),
      await raw(h(), 'GET', authorizePath(realm, codeRequest(client)), { headers: origin }),
      await raw(h(), 'POST', `/realms/${realm}/oauth/authorize`, { form: codeRequest(client), headers: origin }),
    ];
    for (const res of answers) {
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect([400, 303]).toContain(res.status);
    }
    // a CORS preflight is not answered with CORS either
    const preflight = await h().app.inject({
      method: 'OPTIONS',
      url: `/realms/${realm}/oauth/authorize`,
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    // the POSTed form's answer is a 303, so the browser does not re-POST it anywhere (AS-15)
    expect(answers[3]!.status).toBe(303);
    // the error page: escaped, no script
    const page = await raw(h(), 'GET', authorizePath(realm, { response_type: 'code', client_id: '<script>alert(1)</script>', scope: 'openid' }));
    expect(page.text).not.toContain('<script');
  });

  it('a browser with an SSO session gets a code at once: 303 with code, state, iss; the code stored hashed with its request', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const user = await createPerson(h(), { realmId: realm });
    const { res, sso } = await signInThroughConsole(h(), client, user);
    expect(res.body.data.next).toBe('redirect');
    expect(sso).toBeTruthy();
    const { challenge } = pkcePair();
    const again = await raw(h(), 'GET', authorizePath(realm, codeRequest(client, { code_challenge: challenge, code_challenge_method: 'S256' })), { sso });
    expect(again.status).toBe(303);
    expect(again.location!.startsWith('https://app.test/cb?code=')).toBe(true);
    const q = queryOf(again.location);
    expect(q).toEqual({ code: expect.stringMatching(/^[A-Za-z0-9]{43}$/), state: 'st-123', iss: issuer(realm) });
    const row = await h().ctx.repos.oauthCodes.find(h().ctx.secrets.hash('oauth-code', q.code!));
    expect(row).toMatchObject({
      realm_id: realm,
      client_ref: client.id,
      account_id: user.id,
      redirect_uri: 'https://app.test/cb',
      scope: 'openid profile',
      nonce: 'n-456',
      code_challenge: challenge,
      used_at: null,
    });
    expect(Number(row!.expires_at) - Number(row!.created_at)).toBe(60_000);
    // the code itself is stored nowhere
    const all = JSON.stringify(await h().dbh.db.selectFrom('oauth_codes').selectAll().execute());
    expect(all).not.toContain(q.code);
    // the SSO cookie of realm A is nothing in realm B
    const other = await makeClient(h(), await createRealm(h()));
    const elsewhere = await raw(h(), 'GET', authorizePath(other.realmId, codeRequest(other)), { sso });
    expect(new URL(elsewhere.location!).pathname).toBe('/user/loginSSO');
  });
});
