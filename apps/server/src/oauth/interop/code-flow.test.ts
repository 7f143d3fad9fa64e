/**
 * Issue 12 "Tests" / SECURITY.md A-27 (replaced by this suite): openid-client v6, a certified
 * relying party we did not write, against two realms of one listening umbo, on SQLite and
 * PostgreSQL. The browser-driven sign-in is tests/browser/oidc-interop.test.ts; here the
 * console's sign-in is its API (interop.testkit.ts codeFlow), everything the RP does is
 * openid-client's own code: discovery, authorization request, code redemption with PKCE and
 * ID token validation, userinfo, refresh, introspection, revocation, end-session URL.
 */
import { expect, it } from 'vitest';
import { claimsOf, codeFlow, describeInterop, oauthError, oidc, RP, rpFor } from './interop.testkit.js';

const GRANTS = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:token-exchange',
  'urn:ietf:params:oauth:grant-type:device_code',
];

describeInterop('A-27 (replaced) openid-client interop: discovery and the code flow', (env) => {
  it('discovery: each realm is its own issuer, every endpoint under it, capabilities as the provider implements them', async () => {
    const { a, b } = env();
    const [ca, cb] = await Promise.all([rpFor(a), rpFor(b)]);
    // openid-client has checked that `issuer` equals the URL it discovered (OIDC Discovery §4.3)
    const m = ca.serverMetadata();
    expect(m.issuer).toBe(a.issuer);
    expect(cb.serverMetadata().issuer).toBe(b.issuer);
    expect(m).toMatchObject({
      authorization_endpoint: `${a.issuer}/oauth/authorize`,
      token_endpoint: `${a.issuer}/oauth/token`,
      userinfo_endpoint: `${a.issuer}/oauth/userinfo`,
      jwks_uri: `${a.issuer}/oauth/jwks`,
      introspection_endpoint: `${a.issuer}/oauth/introspect`,
      revocation_endpoint: `${a.issuer}/oauth/revoke`,
      end_session_endpoint: `${a.issuer}/oauth/logout`,
      device_authorization_endpoint: `${a.issuer}/oauth/device_authorization`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(m.grant_types_supported).toEqual(expect.arrayContaining(GRANTS));
    expect(m.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256']));
    expect(m.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none']));
  });

  it('authorization code + PKCE: openid-client accepts the answer (state, iss, PKCE) and validates the ID token; userinfo names the same subject', async () => {
    const i = env();
    const cfg = await rpFor(i.a);
    const { tokens, nonce } = await codeFlow(i, i.a, cfg);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: i.a.issuer, sub: i.a.person.id, nonce, email: i.a.person.row.email, phone_number: i.a.person.row.phone });
    expect([claims.aud].flat()).toContain(i.a.web.clientId);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toBeTruthy();
    // RFC 9068 §2.1: the access token is a JWT of type at+jwt
    const header = JSON.parse(Buffer.from(tokens.access_token.split('.')[0]!, 'base64url').toString('utf8'));
    expect(header).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
    expect(claimsOf(tokens.access_token)).toMatchObject({ iss: i.a.issuer, sub: i.a.person.id, client_id: i.a.web.clientId });

    // OIDC Core §5.3.2: openid-client refuses a userinfo whose sub differs from the one expected
    const info = await oidc.fetchUserInfo(cfg, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: i.a.person.id, email: i.a.person.row.email, preferred_username: i.a.person.username });
  });

  it('a client registered for RS256: openid-client validates its RS256 ID token against the realm JWKS; userinfo agrees', async () => {
    const i = env();
    const cfg = await rpFor(i.a, 'rsa');
    const { tokens } = await codeFlow(i, i.a, cfg, 'openid profile');
    expect(JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString('utf8'))).toMatchObject({ alg: 'RS256' });
    expect(tokens.claims()).toMatchObject({ iss: i.a.issuer, sub: i.a.person.id });
    expect((await oidc.fetchUserInfo(cfg, tokens.access_token, i.a.person.id)).sub).toBe(i.a.person.id);
  });

  it('client_secret_post works as client_secret_basic does', async () => {
    const i = env();
    const { tokens } = await codeFlow(i, i.a, await rpFor(i.a, 'web', 'post'), 'openid');
    expect(tokens.claims()?.sub).toBe(i.a.person.id);
  });

  it('refresh with rotation: a new refresh token each time, a new ID token openid-client validates; replaying a rotated one revokes the family (RFC 9700 §4.14.2)', async () => {
    const i = env();
    const cfg = await rpFor(i.a);
    const { tokens } = await codeFlow(i, i.a, cfg);
    const first = tokens.refresh_token!;
    const r1 = await oidc.refreshTokenGrant(cfg, first);
    expect(r1.refresh_token).toBeTruthy();
    expect(r1.refresh_token).not.toBe(first);
    expect(r1.claims()?.sub).toBe(i.a.person.id);
    const r2 = await oidc.refreshTokenGrant(cfg, r1.refresh_token!);
    expect(r2.refresh_token).not.toBe(r1.refresh_token);

    // the first one again: refused, and the whole family with it
    expect(await oauthError(oidc.refreshTokenGrant(cfg, first))).toBe('invalid_grant');
    expect(await oauthError(oidc.refreshTokenGrant(cfg, r2.refresh_token!))).toBe('invalid_grant');
    expect((await oidc.tokenIntrospection(cfg, r2.access_token)).active).toBe(false);
  });

  it('introspection (RFC 7662) and revocation (RFC 7009): active with its claims, then inactive everywhere once revoked', async () => {
    const i = env();
    const cfg = await rpFor(i.a);
    const { tokens } = await codeFlow(i, i.a, cfg, 'openid profile offline_access');
    const live = await oidc.tokenIntrospection(cfg, tokens.access_token);
    expect(live).toMatchObject({ active: true, sub: i.a.person.id, client_id: i.a.web.clientId, iss: i.a.issuer });
    expect(String(live.scope).split(' ')).toEqual(expect.arrayContaining(['openid', 'profile']));

    await oidc.tokenRevocation(cfg, tokens.access_token);
    expect((await oidc.tokenIntrospection(cfg, tokens.access_token)).active).toBe(false);
    expect(await oauthError(oidc.fetchUserInfo(cfg, tokens.access_token, i.a.person.id))).toBe('invalid_token');

    // revoking the refresh token ends it (RFC 7009 §2.1), and revocation of an unknown token is still 200 (§2.2)
    await oidc.tokenRevocation(cfg, tokens.refresh_token!);
    expect(await oauthError(oidc.refreshTokenGrant(cfg, tokens.refresh_token!))).toBe('invalid_grant');
    await oidc.tokenRevocation(cfg, 'not-a-token-we-issued');
  });

  it('a token of realm A is refused by realm B: userinfo answers invalid_token, introspection active: false, refresh invalid_grant', async () => {
    const i = env();
    const [ca, cb] = await Promise.all([rpFor(i.a), rpFor(i.b)]);
    const { tokens } = await codeFlow(i, i.a, ca);
    expect(await oauthError(oidc.fetchUserInfo(cb, tokens.access_token, i.a.person.id))).toBe('invalid_token');
    expect((await oidc.tokenIntrospection(cb, tokens.access_token)).active).toBe(false);
    expect(await oauthError(oidc.refreshTokenGrant(cb, tokens.refresh_token!))).toBe('invalid_grant');
    // and still fine where it belongs
    expect((await oidc.tokenIntrospection(ca, tokens.access_token)).active).toBe(true);
  });

  it('RP-initiated logout: the end-session URL openid-client builds goes back to the registered post_logout_redirect_uri with state, and the SSO session is over', async () => {
    const i = env();
    const cfg = await rpFor(i.a);
    const { tokens, ssoCookie } = await codeFlow(i, i.a, cfg, 'openid');
    expect(ssoCookie).not.toBe('');
    const silent = async () => {
      const url = oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: `${RP}/cb`,
        scope: 'openid',
        prompt: 'none',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        state: 'silent',
      });
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: ssoCookie } });
      return new URL(res.headers.get('location') ?? 'about:blank');
    };
    // before: the SSO session answers prompt=none with a code
    expect((await silent()).searchParams.get('code')).toBeTruthy();

    const end = oidc.buildEndSessionUrl(cfg, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${RP}/logged-out`, state: 'bye' });
    // a valid id_token_hint of the signed-in user: no confirmation page (RP-Initiated Logout §2), straight back
    const res = await fetch(end, { redirect: 'manual', headers: { cookie: ssoCookie } });
    expect([302, 303]).toContain(res.status);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${RP}/logged-out`);
    expect(back.searchParams.get('state')).toBe('bye');

    const after = await silent();
    expect(after.searchParams.get('error')).toBe('login_required');
    expect(after.searchParams.get('code')).toBeNull();
  });
});
