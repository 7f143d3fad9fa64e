/**
 * The refresh token grant (AS-09, AS-10): rotation with replay detection, binding to the
 * client, scope narrowing, idle and absolute expiry, parallel refreshes, fault injection.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { createPerson } from '../../test/kit.js';
import { claimsOf, introspect, makeClient, newCode, pkcePair, postToken, refresh, userTokens } from '../test/token.testkit.js';

const DAY = 24 * 60 * 60 * 1000;

describeBothDbs('token endpoint: refresh token', (h) => {
  const liveRefreshTokens = (familyId: string) => h().ctx.repos.oauthRefreshTokens.countLive(familyId, h().clock.now());

  it("A-13 rotation on: RT0 → RT1; RT0 again → invalid_grant, then RT1 → invalid_grant, the grant's ATs inactive", async () => {
    const client = await makeClient(h(), 'master', { refreshTokenRecreate: true });
    const user = await createPerson(h());
    const t0 = await userTokens(h(), client, user);
    h().clock.advance(1000);
    const r1 = await refresh(h(), client, t0.refresh_token!);
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).not.toBe(t0.refresh_token);
    expect(claimsOf(r1.body.access_token).gid).toBe(claimsOf(t0.access_token).gid);
    h().clock.advance(1000);
    const replay = await refresh(h(), client, t0.refresh_token!);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await refresh(h(), client, r1.body.refresh_token)).body.error).toBe('invalid_grant');
    for (const at of [t0.access_token, r1.body.access_token]) expect((await introspect(h(), client, at)).text).toBe('{"active":false}');
  });

  it('A-13 rotation off: the same RT stays and keeps working; another client presenting it → invalid_grant', async () => {
    const client = await makeClient(h(), 'master', { refreshTokenRecreate: false });
    const other = await makeClient(h(), 'master');
    const user = await createPerson(h());
    const t0 = await userTokens(h(), client, user);
    const r1 = await refresh(h(), client, t0.refresh_token!);
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).toBe(t0.refresh_token);
    expect((await refresh(h(), client, t0.refresh_token!)).status).toBe(200);
    const stolen = await refresh(h(), other, t0.refresh_token!);
    expect(stolen.body.error).toBe('invalid_grant');
    // presenting it at another client revokes nothing
    expect((await refresh(h(), client, t0.refresh_token!)).status).toBe(200);
  });

  it("AS-09 a public client's refresh tokens rotate even with refreshTokenRecreate off", async () => {
    const client = await makeClient(h(), 'master', { refreshTokenRecreate: false, tokenEndpointAuthMethod: 'none', secretHash: null });
    const user = await createPerson(h());
    const { verifier, challenge } = pkcePair();
    const code = await newCode(h(), client, user, { challenge });
    const t0 = await postToken(h(), 'master', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUris[0]!,
      client_id: client.clientId,
      code_verifier: verifier,
    });
    const r1 = await postToken(h(), 'master', { grant_type: 'refresh_token', refresh_token: t0.body.refresh_token, client_id: client.clientId });
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).not.toBe(t0.body.refresh_token);
  });

  it('A-14 a wider scope → invalid_scope; a narrower one is granted and the RT keeps the original scope', async () => {
    const client = await makeClient(h(), 'master', { refreshTokenRecreate: false });
    const user = await createPerson(h());
    const t0 = await userTokens(h(), client, user, { scope: 'openid profile offline_access' });
    const wider = await refresh(h(), client, t0.refresh_token!, { scope: 'openid profile email offline_access' });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    const narrow = await refresh(h(), client, t0.refresh_token!, { scope: 'profile' });
    expect(narrow.status).toBe(200);
    expect(narrow.body.scope).toBe('profile');
    expect(claimsOf(narrow.body.access_token).scope).toBe('profile');
    expect(narrow.body.id_token).toBeUndefined();
    const full = await refresh(h(), client, t0.refresh_token!);
    expect(full.body.scope).toBe('openid profile offline_access');
    expect(typeof full.body.id_token).toBe('string');
  });

  it('A-15 idle timeout: an RT unused for refreshtokenExpirSec → invalid_grant', async () => {
    const client = await makeClient(h(), 'master', { refreshTokenExpirSec: 86400 });
    const user = await createPerson(h());
    const t0 = await userTokens(h(), client, user);
    h().clock.advance(DAY + 1000);
    expect((await refresh(h(), client, t0.refresh_token!)).body.error).toBe('invalid_grant');
  });

  it("A-15 absolute lifetime: sliding renewals every 20 days end at the family's 90th day", async () => {
    const client = await makeClient(h(), 'master', { refreshTokenExpirSec: 30 * 86400, refreshTokenRecreate: true });
    const user = await createPerson(h());
    let rt = (await userTokens(h(), client, user)).refresh_token!;
    for (let day = 20; day < 90; day += 20) {
      h().clock.advance(20 * DAY);
      const r = await refresh(h(), client, rt);
      expect(r.status).toBe(200);
      rt = r.body.refresh_token;
    }
    // day 80: the last RT would live to day 110, but the family ends at day 90
    h().clock.advance(10 * DAY + 1000);
    expect((await refresh(h(), client, rt)).body.error).toBe('invalid_grant');
  });

  it('200 parallel refreshes of one RT with rotation: exactly one succeeds, the family keeps one live RT', async () => {
    const client = await makeClient(h(), 'master', { refreshTokenRecreate: true });
    const user = await createPerson(h());
    const t0 = await userTokens(h(), client, user);
    const gid = claimsOf(t0.access_token).gid as string;
    const answers = await Promise.all(Array.from({ length: 200 }, () => refresh(h(), client, t0.refresh_token!)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(answers.filter((a) => a.body.error === 'invalid_grant')).toHaveLength(199);
    expect(await liveRefreshTokens(gid)).toBe(1);
    expect((await refresh(h(), client, ok[0]!.body.refresh_token)).status).toBe(200);
  });

  it('A-45 a failure between inserting the new RT and marking the old one: the old stays valid, the new unknown', async () => {
    const client = await makeClient(h(), 'master', { refreshTokenRecreate: true });
    const user = await createPerson(h());
    const t0 = await userTokens(h(), client, user);
    const gid = claimsOf(t0.access_token).gid as string;
    const faults = h().ctx.services.oauthTokens.faults;
    faults.afterRefreshInsert = () => {
      throw new Error('injected fault');
    };
    let failed;
    try {
      failed = await refresh(h(), client, t0.refresh_token!);
    } finally {
      faults.afterRefreshInsert = undefined;
    }
    expect(failed.status).toBe(500);
    const rows = await h().ctx.db.selectFrom('oauth_refresh_tokens').selectAll().where('family_id', '=', gid).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.used_at).toBeNull();
    expect(await liveRefreshTokens(gid)).toBe(1);
    const again = await refresh(h(), client, t0.refresh_token!);
    expect(again.status).toBe(200);
  });

  it('a disabled user cannot refresh (invalid_grant); a disabled client is invalid_client', async () => {
    const client = await makeClient(h(), 'master');
    const user = await createPerson(h());
    const t0 = await userTokens(h(), client, user);
    await h().ctx.repos.accounts.setPersonsDisabled('master', [user.id], true, h().clock.now());
    expect((await refresh(h(), client, t0.refresh_token!)).body.error).toBe('invalid_grant');
    await h().ctx.repos.accounts.setPersonsDisabled('master', [user.id], false, h().clock.now());
    await h().ctx.repos.clients.update('master', client.id, { disabled: true }, h().clock.now());
    const res = await refresh(h(), client, t0.refresh_token!);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});
