/**
 * Using and ending tokens: introspection (A-19, AS-22), revocation (A-20, AS-21), userinfo
 * (A-21, AS-23), across realms and clients.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { createPerson, createRealm } from '../../test/kit.js';
import { claimsOf, introspect, makeClient, postForm, postToken, refresh, revoke, serviceClient, userTokens } from '../test/token.testkit.js';

describeBothDbs('introspection, revocation, userinfo', (h) => {
  const userinfo = (realmId: string, token?: string, method: 'GET' | 'POST' = 'GET') =>
    h().app.inject({ method, url: `/realms/${realmId}/oauth/userinfo`, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it("200 parallel client_credentials requests of two clients: each answer is its own client's valid token (signatures are made in batches)", async () => {
    const clients = [await serviceClient(h(), 'master'), await serviceClient(h(), 'master')];
    const askers = Array.from({ length: 200 }, (_, n) => clients[n % 2]!);
    const answers = await Promise.all(askers.map((client) => postToken(h(), 'master', { grant_type: 'client_credentials', scope: 'profile' }, { client })));
    expect(answers.map((a) => a.status)).toEqual(askers.map(() => 200));
    const claims = answers.map((a) => claimsOf(a.body.access_token));
    expect(claims.map((c) => [c.aud, c.client_id, c.sub])).toEqual(askers.map((c) => [c.clientId, c.clientId, `client:${c.clientId}`]));
    expect(new Set(claims.map((c) => c.jti)).size).toBe(200);
    // every signature checks out (introspection verifies it), each at its own client
    const active = await Promise.all(answers.map((a, n) => introspect(h(), askers[n]!, a.body.access_token)));
    expect(active.map((r) => r.body.active)).toEqual(askers.map(() => true));
  });

  it('A-19 introspection: no or bad client authentication → 401', async () => {
    const client = await makeClient(h(), 'master');
    const user = await createPerson(h());
    const t = await userTokens(h(), client, user);
    const anonymous = await postForm(h(), `/realms/master/oauth/introspect`, { token: t.access_token });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('invalid_client');
    expect((await introspect(h(), client, t.access_token, { secret: 'wrong' })).status).toBe(401);
    const pub = await makeClient(h(), 'master', { tokenEndpointAuthMethod: 'none', secretHash: null });
    expect((await postForm(h(), `/realms/master/oauth/introspect`, { token: t.access_token, client_id: pub.clientId })).status).toBe(401);
  });

  it('A-19 introspection: revoked, expired, garbage, other-realm or other-client tokens → exactly {"active":false}', async () => {
    const client = await makeClient(h(), 'master');
    const other = await makeClient(h(), 'master');
    const user = await createPerson(h());
    const t = await userTokens(h(), client, user);
    const active = await introspect(h(), client, t.access_token);
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ active: true, client_id: client.clientId, sub: user.id, username: user.username, token_type: 'Bearer' });
    expect(active.headers['cache-control']).toBe('no-store');
    expect((await introspect(h(), client, t.refresh_token!)).body).toMatchObject({ active: true, token_type: 'refresh_token', sub: user.id });
    expect((await introspect(h(), other, t.access_token)).text).toBe('{"active":false}');
    expect((await introspect(h(), client, 'garbage')).text).toBe('{"active":false}');
    expect((await introspect(h(), client, 'a.b.c')).text).toBe('{"active":false}');
    // realm B's token at realm A (and the other way round)
    const realmB = await createRealm(h());
    const clientB = await makeClient(h(), realmB);
    const userB = await createPerson(h(), { realmId: realmB });
    const tB = await userTokens(h(), clientB, userB);
    expect((await introspect(h(), client, tB.access_token)).text).toBe('{"active":false}');
    const sameIdInA = await makeClient(h(), 'master', { clientId: clientB.clientId });
    expect((await introspect(h(), sameIdInA, tB.access_token)).text).toBe('{"active":false}');
    // revoked
    expect((await revoke(h(), client, t.access_token)).status).toBe(200);
    expect((await introspect(h(), client, t.access_token)).text).toBe('{"active":false}');
    // expired
    const t2 = await userTokens(h(), client, user);
    h().clock.advance(3600_000 + 61_000);
    expect((await introspect(h(), client, t2.access_token)).text).toBe('{"active":false}');
  });

  it("A-20 revocation: unknown token → 200; C2 revoking C1's token → refused, token still active; unauthenticated → 401", async () => {
    const c1 = await makeClient(h(), 'master');
    const c2 = await makeClient(h(), 'master');
    const user = await createPerson(h());
    const t = await userTokens(h(), c1, user);
    expect((await revoke(h(), c1, 'no-such-token')).status).toBe(200);
    expect((await revoke(h(), c1, 'x.y.z')).status).toBe(200);
    for (const token of [t.access_token, t.refresh_token!]) {
      const refused = await revoke(h(), c2, token);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('unauthorized_client');
    }
    expect((await introspect(h(), c1, t.access_token)).body.active).toBe(true);
    expect((await refresh(h(), c1, t.refresh_token!)).status).toBe(200);
    const anonymous = await postForm(h(), '/realms/master/oauth/revoke', { token: t.access_token });
    expect(anonymous.status).toBe(401);
  });

  it('A-20 revoking an RT kills it and the ATs of its grant; revoking an AT kills that AT only', async () => {
    const client = await makeClient(h(), 'master', { refreshTokenRecreate: false });
    const user = await createPerson(h());
    const t = await userTokens(h(), client, user);
    const second = await refresh(h(), client, t.refresh_token!);
    expect((await revoke(h(), client, second.body.access_token)).status).toBe(200);
    expect((await introspect(h(), client, second.body.access_token)).text).toBe('{"active":false}');
    expect((await introspect(h(), client, t.access_token)).body.active).toBe(true);
    expect((await revoke(h(), client, t.refresh_token!)).status).toBe(200);
    expect((await refresh(h(), client, t.refresh_token!)).body.error).toBe('invalid_grant');
    expect((await introspect(h(), client, t.access_token)).text).toBe('{"active":false}');
    const events = await h().ctx.db.selectFrom('audit_events').select(['action', 'detail']).where('target_id', '=', client.id).execute();
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['oauth.token.issued', 'oauth.token.refreshed', 'oauth.token.revoked']));
    for (const e of events) expect(e.detail).not.toContain(t.refresh_token!);
  });

  it('A-21 userinfo: no token → 401 WWW-Authenticate Bearer; revoked or expired → invalid_token; ID token or client token → 401', async () => {
    const client = await makeClient(h(), 'master');
    const user = await createPerson(h(), { email: `u${Date.now()}@example.test` });
    const none = await userinfo('master');
    expect(none.statusCode).toBe(401);
    expect(String(none.headers['www-authenticate'])).toMatch(/^Bearer/);
    expect(String(none.headers['www-authenticate'])).not.toContain('error=');
    const t = await userTokens(h(), client, user, { scope: 'openid email' });
    const ok = await userinfo('master', t.access_token);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const body = ok.json();
    // sub equals the ID token's; only the claims of granted scopes (email, not profile)
    expect(body.sub).toBe(claimsOf(t.id_token!).sub);
    expect(body).toEqual({ sub: user.id, email: user.row.email, email_verified: false });
    expect((await userinfo('master', t.access_token, 'POST')).statusCode).toBe(200);
    const idAsBearer = await userinfo('master', t.id_token!);
    expect(idAsBearer.statusCode).toBe(401);
    expect(String(idAsBearer.headers['www-authenticate'])).toContain('error="invalid_token"');
    const svc = await serviceClient(h(), 'master', { scopes: ['openid', 'profile'] });
    const cc = await postToken(h(), 'master', { grant_type: 'client_credentials', scope: 'profile' }, { client: svc });
    expect((await userinfo('master', cc.body.access_token)).statusCode).toBe(401);
    const noneAlg = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${t.access_token.split('.')[1]}.`;
    expect((await userinfo('master', noneAlg)).statusCode).toBe(401);
    await revoke(h(), client, t.access_token);
    const revoked = await userinfo('master', t.access_token);
    expect(revoked.statusCode).toBe(401);
    expect(String(revoked.headers['www-authenticate'])).toContain('error="invalid_token"');
    const t2 = await userTokens(h(), client, user, { scope: 'openid profile' });
    expect(await userinfo('master', t2.access_token).then((r) => r.json())).toEqual({
      sub: user.id,
      name: user.username,
      preferred_username: user.username,
      updated_at: expect.any(Number),
    });
    h().clock.advance(3600_000 + 61_000);
    expect((await userinfo('master', t2.access_token)).statusCode).toBe(401);
  });

  it('userinfo without the openid scope → 403 insufficient_scope; at another realm → 401', async () => {
    const client = await makeClient(h(), 'master');
    const user = await createPerson(h());
    const t = await userTokens(h(), client, user, { scope: 'profile' });
    const res = await userinfo('master', t.access_token);
    expect(res.statusCode).toBe(403);
    expect(String(res.headers['www-authenticate'])).toContain('insufficient_scope');
    const realmB = await createRealm(h());
    const t2 = await userTokens(h(), client, user, { scope: 'openid' });
    expect((await userinfo(realmB, t2.access_token)).statusCode).toBe(401);
    expect((await userinfo('nosuchrealm', t2.access_token)).statusCode).toBe(404);
  });
});
