/**
 * Issue 12 "Tests": openid-client v6 against two realms of one listening umbo, on SQLite and
 * PostgreSQL, for the grants without a browser redirect: client_credentials (RFC 6749 §4.4),
 * token exchange for a sub client (RFC 8693, SPEC §3 allowToken) and the device grant
 * (RFC 8628) with the user's approval through the console's API while openid-client polls.
 * The /device page in Chromium is tests/browser/oidc-interop.test.ts.
 */
import { expect, it } from 'vitest';
import { as, tokenFor } from '../../test/kit.js';
import { ACCESS_TOKEN_TYPE, claimsOf, codeFlow, describeInterop, deviceRpFor, keyedRpFor, oauthError, oidc, rpFor, TOKEN_EXCHANGE } from './interop.testkit.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeInterop('A-27 (replaced) openid-client interop: client_credentials, token exchange, device grant', (env) => {
  it('client_credentials (basic and post): an RFC 9068 access token for the client itself, active at introspection, no refresh token', async () => {
    const { a } = env();
    for (const auth of ['basic', 'post'] as const) {
      const cfg = await rpFor(a, 'web', auth);
      const tokens = await oidc.clientCredentialsGrant(cfg);
      expect(tokens.refresh_token).toBeUndefined();
      expect(tokens.id_token).toBeUndefined();
      const header = JSON.parse(Buffer.from(tokens.access_token.split('.')[0]!, 'base64url').toString('utf8'));
      expect(header).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
      const c = claimsOf(tokens.access_token);
      expect(c).toMatchObject({ iss: a.issuer, client_id: a.web.clientId });
      expect(c.sub).not.toBe(a.person.id);
      expect(await oidc.tokenIntrospection(cfg, tokens.access_token)).toMatchObject({ active: true, client_id: a.web.clientId });
    }
  });

  it('private_key_jwt (RFC 7523 §2.2): openid-client’s signed client assertion authenticates; the same assertion key at realm B does not', async () => {
    const { a, b } = env();
    const tokens = await oidc.clientCredentialsGrant(await keyedRpFor(a));
    expect(claimsOf(tokens.access_token)).toMatchObject({ iss: a.issuer, client_id: a.keyed.clientId });
    // realm B has no such client: its assertion names a client B does not know
    const stray = new oidc.Configuration((await rpFor(b)).serverMetadata(), a.keyed.clientId, {}, oidc.PrivateKeyJwt({ key: a.keyed.key, kid: a.keyed.kid }));
    oidc.allowInsecureRequests(stray);
    expect(await oauthError(oidc.clientCredentialsGrant(stray))).toBe('invalid_client');
  });

  it('a client of realm A is unknown at realm B (invalid_client), and a wrong secret is invalid_client', async () => {
    const { a, b } = env();
    const cb = await rpFor(b);
    // realm A's client, dialling realm B's token endpoint
    const stray = new oidc.Configuration(cb.serverMetadata(), a.web.clientId, { client_secret: a.web.secret }, oidc.ClientSecretBasic(a.web.secret));
    oidc.allowInsecureRequests(stray);
    expect(await oauthError(oidc.clientCredentialsGrant(stray))).toBe('invalid_client');
    const wrong = new oidc.Configuration(cb.serverMetadata(), b.web.clientId, { client_secret: 'x'.repeat(32) }, oidc.ClientSecretBasic('x'.repeat(32)));
    oidc.allowInsecureRequests(wrong);
    expect(await oauthError(oidc.clientCredentialsGrant(wrong))).toBe('invalid_client');
  });

  it('token exchange (RFC 8693): the parent swaps a user access token for a sub-client token whose act names the parent; revoking the parent grant ends it', async () => {
    const i = env();
    const parent = await rpFor(i.a);
    const { tokens } = await codeFlow(i, i.a, parent, 'openid profile offline_access');
    const exchanged = await oidc.genericGrantRequest(parent, TOKEN_EXCHANGE, {
      subject_token: tokens.access_token,
      subject_token_type: ACCESS_TOKEN_TYPE,
      audience: i.a.sub.clientId,
    });
    expect(exchanged.issued_token_type).toBe(ACCESS_TOKEN_TYPE);
    const c = claimsOf(exchanged.access_token);
    expect(c).toMatchObject({ iss: i.a.issuer, sub: i.a.person.id, client_id: i.a.sub.clientId, act: { sub: `client:${i.a.web.clientId}` } });
    const subRp = await rpFor(i.a, 'sub');
    expect(await oidc.tokenIntrospection(subRp, exchanged.access_token)).toMatchObject({ active: true, sub: i.a.person.id });
    expect((await oidc.fetchUserInfo(subRp, exchanged.access_token, i.a.person.id)).sub).toBe(i.a.person.id);

    // the parent's grant revoked (its refresh token, RFC 7009 §2.1 "…and other tokens based on the same authorization grant")
    await oidc.tokenRevocation(parent, tokens.refresh_token!);
    expect((await oidc.tokenIntrospection(subRp, exchanged.access_token)).active).toBe(false);
  });

  it('token exchange is refused for a client that is not the parent (invalid_target), across realms, and for a subject token of another realm (invalid_grant)', async () => {
    const i = env();
    const parent = await rpFor(i.a);
    const { tokens } = await codeFlow(i, i.a, parent, 'openid');
    const exchange = (cfg: oidc.Configuration, subjectToken: string) =>
      oauthError(
        oidc.genericGrantRequest(cfg, TOKEN_EXCHANGE, { subject_token: subjectToken, subject_token_type: ACCESS_TOKEN_TYPE, audience: i.a.sub.clientId }),
      );
    // the sub client itself is nobody's parent
    expect(await exchange(await rpFor(i.a, 'sub'), tokens.access_token)).toBe('invalid_target');
    // realm B's client, at realm B, naming realm A's sub client
    expect(await exchange(await rpFor(i.b), tokens.access_token)).toBe('invalid_target');
    // the right parent, with a user token of realm B
    const other = await codeFlow(i, i.b, await rpFor(i.b), 'openid');
    expect(await exchange(parent, other.tokens.access_token)).toBe('invalid_grant');
  });

  it('device grant (RFC 8628): openid-client polls (authorization_pending) while the user approves the code in the console; tokens with an ID token it validates', async () => {
    const i = env();
    const cfg = await deviceRpFor(i.a);
    const started = await oidc.initiateDeviceAuthorization(cfg, { scope: 'openid profile offline_access' });
    expect(started.verification_uri).toBe(`${i.base}/device?realm_id=${i.a.realmId}`);
    expect(started.interval ?? 5).toBeGreaterThanOrEqual(5);
    // what the device was told at each poll, as openid-client received it
    const answers: string[] = [];
    cfg[oidc.customFetch] = async (url, options) => {
      const res = await fetch(url, options as RequestInit);
      if (url.endsWith('/oauth/token')) answers.push(res.status === 200 ? 'tokens' : String(((await res.clone().json()) as { error?: string }).error));
      return res;
    };
    const polling = oidc.pollDeviceAuthorizationGrant(cfg, started);
    // the user signs in and approves once the device has polled at least once
    await sleep(6_000);
    const console = await tokenFor(i.h, i.a.person);
    const decided = await as(i.h, console).post('/api/users/oauth/device', { user_code: started.user_code, approve: true });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const tokens = await polling;
    expect(answers[0]).toBe('authorization_pending');
    expect(answers.at(-1)).toBe('tokens');
    expect(tokens.claims()).toMatchObject({ iss: i.a.issuer, sub: i.a.person.id });
    expect((await oidc.fetchUserInfo(cfg, tokens.access_token, i.a.person.id)).preferred_username).toBe(i.a.person.username);
    // a public client's refresh token rotates too
    if (tokens.refresh_token) expect((await oidc.refreshTokenGrant(cfg, tokens.refresh_token)).refresh_token).not.toBe(tokens.refresh_token);
    // the device code is spent
    expect(await oauthError(oidc.pollDeviceAuthorizationGrant(cfg, started))).toMatch(/invalid_grant|expired_token/);
  }, 60_000);

  it('device grant denied: openid-client gets access_denied; a user of realm B cannot approve realm A’s code', async () => {
    const i = env();
    const cfg = await deviceRpFor(i.a);
    const started = await oidc.initiateDeviceAuthorization(cfg, { scope: 'openid' });
    const stranger = await tokenFor(i.h, i.b.person);
    const refused = await as(i.h, stranger).post('/api/users/oauth/device', { user_code: started.user_code, approve: true });
    expect(refused.status).not.toBe(200);
    const console = await tokenFor(i.h, i.a.person);
    expect((await as(i.h, console).post('/api/users/oauth/device', { user_code: started.user_code, approve: false })).status).toBe(200);
    expect(await oauthError(oidc.pollDeviceAuthorizationGrant(cfg, started))).toBe('access_denied');
  }, 60_000);
});
