/**
 * Sub clients (SPEC §3): token exchange for allowToken (RFC 8693; A-18, AS-25) and authorization
 * codes for allowAuthCode, with the parent chain that revoking the parent's grant follows.
 */
import { expect, it } from 'vitest';
import type { OAuthClient } from '../../clients/clients.repo.js';
import { describeBothDbs } from '../../test/harness.js';
import { as, createPerson, createRealm } from '../../test/kit.js';
import { claimsOf, introspect, makeClient, pkcePair, postToken, redeem, revoke, userTokens } from '../test/token.testkit.js';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const AT_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

describeBothDbs('sub clients: token exchange and sub-client codes', (h) => {
  const family = async (realmId = 'master') => {
    const parent = await makeClient(h(), realmId, { scopes: ['openid', 'profile', 'email', 'offline_access'] });
    const sub = await makeClient(h(), realmId, {
      parentId: parent.id,
      allowToken: true,
      allowAuthCode: true,
      scopes: ['openid', 'profile'],
      redirectUris: ['https://sub.test/cb'],
    });
    const user = await createPerson(h(), { realmId });
    return { parent, sub, user };
  };
  const exchange = (caller: OAuthClient, subjectToken: string, audience: string, extra: Record<string, string> = {}) =>
    postToken(h(), caller.realmId, { grant_type: EXCHANGE, subject_token: subjectToken, subject_token_type: AT_TYPE, audience, ...extra }, { client: caller });

  it('A-18 allowed audience → 200 with scope ⊆ subject scope and act.sub = the parent', async () => {
    const { parent, sub, user } = await family();
    const t = await userTokens(h(), parent, user, { scope: 'openid profile email' });
    const res = await exchange(parent, t.access_token, sub.clientId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', issued_token_type: AT_TYPE, scope: 'openid profile' });
    expect(res.body.refresh_token).toBeUndefined();
    const at = claimsOf(res.body.access_token);
    expect(at).toMatchObject({ sub: user.id, aud: sub.clientId, client_id: sub.clientId, act: { sub: `client:${parent.clientId}` } });
    expect((await exchange(parent, t.access_token, sub.clientId, { scope: 'profile' })).body.scope).toBe('profile');
    expect((await exchange(parent, t.access_token, sub.clientId, { scope: 'profile email' })).body.error).toBe('invalid_scope');
    expect((await introspect(h(), sub, res.body.access_token)).body).toMatchObject({ active: true, act: { sub: `client:${parent.clientId}` } });
    const events = await h().ctx.db.selectFrom('audit_events').select(['action', 'detail']).where('target_id', '=', parent.id).execute();
    const exchanged = events.find((e) => e.action === 'oauth.token.exchanged');
    expect(JSON.parse(exchanged!.detail)).toMatchObject({ audience: sub.clientId, clientId: parent.clientId, grantType: EXCHANGE });
  });

  it('A-18 disallowed audience → invalid_target; a sub client without allowToken → unauthorized_client', async () => {
    const { parent, user } = await family();
    const stranger = await makeClient(h(), 'master');
    const notMine = await makeClient(h(), 'master', { parentId: stranger.id, allowToken: true });
    const noFlag = await makeClient(h(), 'master', { parentId: parent.id, allowToken: false });
    const t = await userTokens(h(), parent, user);
    expect((await exchange(parent, t.access_token, stranger.clientId)).body.error).toBe('invalid_target');
    expect((await exchange(parent, t.access_token, notMine.clientId)).body.error).toBe('invalid_target');
    expect((await exchange(parent, t.access_token, 'nobody')).body.error).toBe('invalid_target');
    expect((await exchange(parent, t.access_token, noFlag.clientId)).body.error).toBe('unauthorized_client');
  });

  it('A-18 revoked, expired, other-client or other-realm subject token → invalid_grant', async () => {
    const { parent, sub, user } = await family();
    const other = await makeClient(h(), 'master');
    const tOther = await userTokens(h(), other, user);
    expect((await exchange(parent, tOther.access_token, sub.clientId)).body.error).toBe('invalid_grant');
    const realmB = await createRealm(h());
    const b = await family(realmB);
    const tB = await userTokens(h(), b.parent, b.user);
    expect((await exchange(parent, tB.access_token, sub.clientId)).body.error).toBe('invalid_grant');
    const t = await userTokens(h(), parent, user);
    await revoke(h(), parent, t.access_token);
    expect((await exchange(parent, t.access_token, sub.clientId)).body.error).toBe('invalid_grant');
    const t2 = await userTokens(h(), parent, user);
    h().clock.advance(3600_000 + 61_000);
    expect((await exchange(parent, t2.access_token, sub.clientId)).body.error).toBe('invalid_grant');
  });

  it('revoking the parent grant revokes the exchanged sub-client tokens', async () => {
    const { parent, sub, user } = await family();
    const t = await userTokens(h(), parent, user);
    const ex = await exchange(parent, t.access_token, sub.clientId);
    expect((await introspect(h(), sub, ex.body.access_token)).body.active).toBe(true);
    expect((await revoke(h(), parent, t.refresh_token!)).status).toBe(200);
    expect((await introspect(h(), sub, ex.body.access_token)).text).toBe('{"active":false}');
  });

  it("allowAuthCode: the parent's user token buys a sub-client code bound to its registered URI; redeemable once", async () => {
    const { parent, sub, user } = await family();
    const t = await userTokens(h(), parent, user, { scope: 'openid profile email' });
    const res = await as(h(), t.access_token).post('/api/users/oauth/sub-client-code', { client_id: sub.clientId, state: 's-1' });
    expect(res.status).toBe(200);
    const { code, redirectTo, redirectUri } = res.body.data;
    expect(redirectUri).toBe('https://sub.test/cb');
    expect(redirectTo).toBe(`https://sub.test/cb?code=${code}&state=s-1&iss=${encodeURIComponent('http://umbo.test/realms/master')}`);
    const redeemed = await redeem(h(), sub, code);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.scope).toBe('openid profile');
    expect(claimsOf(redeemed.body.id_token).sub).toBe(user.id);
    // the parent's grant revoked → the sub client's grant derived from it too
    await revoke(h(), parent, t.refresh_token!);
    expect((await introspect(h(), sub, redeemed.body.access_token)).text).toBe('{"active":false}');
  });

  it('allowAuthCode refused: flag off, not the parent, an unregistered redirect URI, a bad token, a public sub client without PKCE', async () => {
    const { parent, sub, user } = await family();
    const t = await userTokens(h(), parent, user);
    const call = (body: Record<string, unknown>, token = t.access_token) => as(h()).post('/api/users/oauth/sub-client-code', { token, ...body });
    const noFlag = await makeClient(h(), 'master', { parentId: parent.id, allowAuthCode: false });
    expect((await call({ client_id: noFlag.clientId })).status).toBe(403);
    const stranger = await makeClient(h(), 'master');
    const notMine = await makeClient(h(), 'master', { parentId: stranger.id, allowAuthCode: true });
    expect((await call({ client_id: notMine.clientId })).status).toBe(403);
    expect((await call({ client_id: sub.clientId, redirect_uri: 'https://evil.test/cb' })).status).toBe(400);
    expect((await call({ client_id: sub.clientId, redirect_uri: 'https://sub.test/cb/' })).status).toBe(400);
    expect((await call({ client_id: sub.clientId }, 'garbage')).status).toBe(401);
    const pubSub = await makeClient(h(), 'master', { parentId: parent.id, allowAuthCode: true, tokenEndpointAuthMethod: 'none', secretHash: null });
    expect((await call({ client_id: pubSub.clientId })).status).toBe(400);
    const { challenge } = pkcePair();
    expect((await call({ client_id: pubSub.clientId, code_challenge: challenge, code_challenge_method: 'S256' })).status).toBe(200);
  });

  it("legacy user.do / newauth.do accept this provider's access tokens (and refuse revoked ones)", async () => {
    const { parent, user } = await family();
    const t = await userTokens(h(), parent, user);
    const name = await as(h()).post('/api/users/user.do', { todo: 'GetIOTUserName', auth: t.access_token });
    expect(name.status).toBe(200);
    expect(name.body.userName).toBe(user.username);
    const id = await as(h()).post('/api/users/newauth.do', { todo: 'GetUserInfoByToken', token: t.access_token });
    expect(id.body.userID).toBe(user.id);
    await revoke(h(), parent, t.access_token);
    expect((await as(h()).post('/api/users/newauth.do', { todo: 'GetUserInfoByToken', token: t.access_token })).status).toBe(401);
  });
});
