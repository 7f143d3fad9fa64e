/**
 * The token endpoint with the authorization code grant (AS-05 to AS-08, AS-11, AS-14): single
 * use and reuse revocation, binding to client and redirect_uri, PKCE, expiry, parallel
 * redemption, authCodeMulitUse, the endpoint's HTTP rules, and fault injection.
 */
import { describe, expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { createPerson } from '../../test/kit.js';
import { claimsOf, introspect, makeClient, newCode, pkcePair, postToken, redeem, SECRET, tokenUrl } from '../test/token.testkit.js';

describeBothDbs('token endpoint: authorization code', (h) => {
  const setup = async (patch: Parameters<typeof makeClient>[2] = {}) => {
    const client = await makeClient(h(), 'master', patch);
    const user = await createPerson(h());
    return { client, user };
  };

  it('redeems a code: access, refresh and ID token, no-store, claims of RFC 9068 and OIDC Core', async () => {
    const { client, user } = await setup();
    const code = await newCode(h(), client, user, { scope: 'openid profile offline_access', nonce: 'n-77' });
    const res = await redeem(h(), client, code);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid profile offline_access' });
    expect(res.body.refresh_token).toMatch(/^[A-Za-z0-9]{43}$/);
    const header = JSON.parse(Buffer.from(res.body.access_token.split('.')[0], 'base64url').toString());
    expect(header).toMatchObject({ typ: 'at+jwt', alg: 'ES256' });
    const at = claimsOf(res.body.access_token);
    const issuer = 'http://umbo.test/realms/master';
    expect(at).toMatchObject({ iss: issuer, sub: user.id, aud: client.clientId, client_id: client.clientId, scope: 'openid profile offline_access' });
    expect(at.exp - at.iat).toBe(3600);
    expect(typeof at.gid).toBe('string');
    const id = claimsOf(res.body.id_token);
    expect(id).toMatchObject({ iss: issuer, sub: user.id, aud: client.clientId, nonce: 'n-77', name: user.username, preferred_username: user.username });
    expect(typeof id.at_hash).toBe('string');
    expect(id.auth_time).toBe(at.auth_time);
  });

  it('A-04 code redeemed twice (2nd after 30 s): invalid_grant, and the first tokens become inactive', async () => {
    const { client, user } = await setup();
    const code = await newCode(h(), client, user);
    const first = await redeem(h(), client, code);
    expect(first.status).toBe(200);
    expect((await introspect(h(), client, first.body.access_token)).body.active).toBe(true);
    h().clock.advance(30_000);
    const second = await redeem(h(), client, code);
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ error: 'invalid_grant' });
    expect(second.headers['cache-control']).toBe('no-store');
    expect((await introspect(h(), client, first.body.access_token)).text).toBe('{"active":false}');
    expect((await introspect(h(), client, first.body.refresh_token)).text).toBe('{"active":false}');
    const refreshed = await postToken(h(), 'master', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token }, { client });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('A-05 20 parallel redemptions of one code: exactly one 200, nineteen invalid_grant, one family', async () => {
    const { client, user } = await setup();
    const code = await newCode(h(), client, user);
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(h(), client, code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.body.error === 'invalid_grant')).toHaveLength(19);
    const families = await h().ctx.db.selectFrom('oauth_families').select('id').where('client_ref', '=', client.id).execute();
    expect(families).toHaveLength(1);
  });

  it('A-06 a code redeemed at TTL + 1 s is invalid_grant, and nothing is issued', async () => {
    const { client, user } = await setup();
    const code = await newCode(h(), client, user);
    h().clock.advance(61_000);
    const res = await redeem(h(), client, code);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    const families = await h().ctx.db.selectFrom('oauth_families').select('id').where('client_ref', '=', client.id).execute();
    expect(families).toHaveLength(0);
  });

  it('A-07 a code of client C1 redeemed by C2, with another redirect_uri, or without one: invalid_grant (and C1 still can)', async () => {
    const { client, user } = await setup({ redirectUris: ['https://app.test/cb', 'https://app.test/other'] });
    const other = await makeClient(h(), 'master');
    const code = await newCode(h(), client, user, { redirectUri: 'https://app.test/cb' });
    const byOther = await postToken(h(), 'master', { grant_type: 'authorization_code', code, redirect_uri: 'https://app.test/cb' }, { client: other });
    expect(byOther.body.error).toBe('invalid_grant');
    expect((await redeem(h(), client, code, { redirect_uri: 'https://app.test/other' })).body.error).toBe('invalid_grant');
    expect((await postToken(h(), 'master', { grant_type: 'authorization_code', code }, { client })).body.error).toBe('invalid_grant');
    // none of the refusals consumed the code
    expect((await redeem(h(), client, code)).status).toBe(200);
  });

  it('A-07 a code issued without redirect_uri may be redeemed without one (RFC 6749 §4.1.3), not with an unregistered one', async () => {
    const { client, user } = await setup();
    const code = await newCode(h(), client, user, { redirectUri: '' });
    expect((await redeem(h(), client, code, { redirect_uri: 'https://evil.test/cb' })).body.error).toBe('invalid_grant');
    expect((await postToken(h(), 'master', { grant_type: 'authorization_code', code }, { client })).status).toBe(200);
  });

  it('A-08 PKCE: no verifier, a wrong one, 42 or 129 characters or a bad charset → invalid_grant; the right one → 200', async () => {
    const { client, user } = await setup();
    const { verifier, challenge } = pkcePair();
    const code = await newCode(h(), client, user, { challenge });
    expect((await redeem(h(), client, code)).body.error).toBe('invalid_grant');
    expect((await redeem(h(), client, code, { code_verifier: pkcePair().verifier })).body.error).toBe('invalid_grant');
    for (const bad of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`, `${verifier.slice(0, 42)}/`]) {
      expect((await redeem(h(), client, code, { code_verifier: bad })).body.error).toBe('invalid_grant');
    }
    expect((await redeem(h(), client, code, { code_verifier: verifier })).status).toBe(200);
  });

  it('A-08 a public client: its code needs a challenge; it authenticates with client_id only', async () => {
    const { client, user } = await setup({ tokenEndpointAuthMethod: 'none', secretHash: null });
    const bare = await newCode(h(), client, user);
    const noPkce = await postToken(h(), 'master', {
      grant_type: 'authorization_code',
      code: bare,
      redirect_uri: client.redirectUris[0]!,
      client_id: client.clientId,
    });
    expect(noPkce.body.error).toBe('invalid_grant');
    const { verifier, challenge } = pkcePair();
    const code = await newCode(h(), client, user, { challenge });
    const ok = await postToken(h(), 'master', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUris[0]!,
      client_id: client.clientId,
      code_verifier: verifier,
    });
    expect(ok.status).toBe(200);
  });

  it('A-09 a code issued without code_challenge, redeemed with any code_verifier: invalid_grant (PKCE downgrade)', async () => {
    const { client, user } = await setup();
    const code = await newCode(h(), client, user);
    const res = await redeem(h(), client, code, { code_verifier: pkcePair().verifier });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('A-11 grant_type=password and implicit-style grants: unsupported_grant_type', async () => {
    const { client } = await setup();
    for (const grant of ['password', 'implicit', 'token', 'urn:x:unknown', '__proto__', 'toString']) {
      const res = await postToken(h(), 'master', { grant_type: grant, username: 'a', password: 'b' }, { client });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('unsupported_grant_type');
    }
  });

  it('A-22 GET → 405; repeated grant_type or code → invalid_request; errors carry no-store; bad Basic → 401 with WWW-Authenticate', async () => {
    const { client, user } = await setup();
    const get = await h().app.inject({ method: 'GET', url: tokenUrl('master') });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const code = await newCode(h(), client, user);
    const base = `code=${code}&redirect_uri=${encodeURIComponent(client.redirectUris[0]!)}`;
    const twiceGrant = await postToken(h(), 'master', `grant_type=authorization_code&grant_type=authorization_code&${base}`, { client });
    expect(twiceGrant.status).toBe(400);
    expect(twiceGrant.body.error).toBe('invalid_request');
    expect(twiceGrant.headers['cache-control']).toBe('no-store');
    const twiceCode = await postToken(h(), 'master', `grant_type=authorization_code&${base}&code=${code}`, { client });
    expect(twiceCode.body.error).toBe('invalid_request');
    const badBasic = await redeem(h(), client, code, {}, { secret: 'wrong' });
    expect(badBasic.status).toBe(401);
    expect(badBasic.body.error).toBe('invalid_client');
    expect(String(badBasic.headers['www-authenticate'])).toMatch(/^Basic/);
    expect(badBasic.headers['cache-control']).toBe('no-store');
    // unknown parameters are ignored; the code still works
    expect((await redeem(h(), client, code, { foo: 'bar' })).status).toBe(200);
    const json = await h().app.inject({
      method: 'POST',
      url: tokenUrl('master'),
      headers: { 'content-type': 'application/json' },
      payload: { grant_type: 'client_credentials' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('unknown realm: 404 in the RFC shape', async () => {
    const res = await postToken(h(), 'nosuchrealm', { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('invalid_request');
  });

  it('client_secret_post works like Basic; both at once → invalid_request', async () => {
    const { client, user } = await setup();
    const code = await newCode(h(), client, user);
    const both = await redeem(h(), client, code, { client_id: client.clientId, client_secret: SECRET });
    expect(both.body.error).toBe('invalid_request');
    const post = await postToken(h(), 'master', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUris[0]!,
      client_id: client.clientId,
      client_secret: SECRET,
    });
    expect(post.status).toBe(200);
  });

  it('a disabled user cannot redeem: invalid_grant', async () => {
    const { client } = await setup();
    const user = await createPerson(h(), { disabled: true });
    const code = await newCode(h(), client, user);
    expect((await redeem(h(), client, code)).body.error).toBe('invalid_grant');
  });

  describe('authCodeMulitUse', () => {
    it('same client, redirect_uri and verifier within 5 minutes: the same answer byte for byte, nothing new minted', async () => {
      const { client, user } = await setup({ authCodeMultiUse: true });
      const { verifier, challenge } = pkcePair();
      const code = await newCode(h(), client, user, { challenge });
      const first = await redeem(h(), client, code, { code_verifier: verifier });
      expect(first.status).toBe(200);
      h().clock.advance(4 * 60_000);
      const again = await redeem(h(), client, code, { code_verifier: verifier });
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      const families = await h().ctx.db.selectFrom('oauth_families').select('id').where('client_ref', '=', client.id).execute();
      expect(families).toHaveLength(1);
      // the tokens of the first answer stay active
      expect((await introspect(h(), client, first.body.access_token)).body.active).toBe(true);
    });

    it('refused after the window (tokens stay), and for another verifier or redirect_uri (tokens revoked)', async () => {
      const { client, user } = await setup({ authCodeMultiUse: true, redirectUris: ['https://app.test/cb', 'https://app.test/b'] });
      const { verifier, challenge } = pkcePair();
      const code = await newCode(h(), client, user, { challenge });
      const first = await redeem(h(), client, code, { code_verifier: verifier });
      h().clock.advance(5 * 60_000 + 1000);
      expect((await redeem(h(), client, code, { code_verifier: verifier })).body.error).toBe('invalid_grant');
      expect((await introspect(h(), client, first.body.access_token)).body.active).toBe(true);

      const code2 = await newCode(h(), client, user, { challenge });
      const first2 = await redeem(h(), client, code2, { code_verifier: verifier });
      expect((await redeem(h(), client, code2, { code_verifier: verifier, redirect_uri: 'https://app.test/b' })).body.error).toBe('invalid_grant');
      expect((await introspect(h(), client, first2.body.access_token)).text).toBe('{"active":false}');

      const code3 = await newCode(h(), client, user, { challenge });
      const first3 = await redeem(h(), client, code3, { code_verifier: verifier });
      expect((await redeem(h(), client, code3, { code_verifier: pkcePair().verifier })).body.error).toBe('invalid_grant');
      expect((await introspect(h(), client, first3.body.access_token)).text).toBe('{"active":false}');
    });

    it('the sealed answer is erased by the sweep after the window', async () => {
      const { client, user } = await setup({ authCodeMultiUse: true });
      const code = await newCode(h(), client, user);
      expect((await redeem(h(), client, code)).status).toBe(200);
      const hash = h().ctx.secrets.hash('oauth-code', code);
      expect((await h().ctx.repos.oauthCodes.find(hash))?.response_sealed).toMatch(/^v1\./);
      h().clock.advance(5 * 60_000 + 1);
      await h().ctx.repos.oauthCodes.clearSealed(h().clock.now() - 5 * 60_000);
      expect((await h().ctx.repos.oauthCodes.find(hash))?.response_sealed).toBeNull();
    });
  });

  it('A-45 a failure after the code is consumed, before the family is written: the code stays unused and redeemable', async () => {
    const { client, user } = await setup();
    const code = await newCode(h(), client, user);
    const faults = h().ctx.services.oauthTokens.faults;
    faults.afterCodeConsume = () => {
      throw new Error('injected fault');
    };
    try {
      const res = await redeem(h(), client, code);
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('server_error');
    } finally {
      faults.afterCodeConsume = undefined;
    }
    const row = await h().ctx.repos.oauthCodes.find(h().ctx.secrets.hash('oauth-code', code));
    expect(row?.used_at).toBeNull();
    expect(row?.family_id).toBeNull();
    const families = await h().ctx.db.selectFrom('oauth_families').select('id').where('client_ref', '=', client.id).execute();
    expect(families).toHaveLength(0);
    expect((await redeem(h(), client, code)).status).toBe(200);
  });
});
