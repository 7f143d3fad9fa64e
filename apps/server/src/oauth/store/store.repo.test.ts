/**
 * oauth_codes and oauth_consents repositories: single-use consumption decided by the database
 * (AS-07, A-05's floor: hundreds of parallel consumers, one winner, on both databases), expiry,
 * consent upsert without duplicates, realm confinement of deletion.
 */
import { expect, it } from 'vitest';
import { randomString } from '../../platform/crypto.js';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { createPerson, createRealm } from '../../test/kit.js';
import { makeClient } from '../test/authorize.testkit.js';

async function codeRow(h: Harness, realmId: string, clientRef: string, accountId: string, ttlMs = 60_000) {
  const code = randomString(43);
  const hash = h.ctx.secrets.hash('oauth-code', code);
  const now = h.clock.now();
  await h.ctx.repos.oauthCodes.insert({
    code_hash: hash,
    realm_id: realmId,
    client_ref: clientRef,
    account_id: accountId,
    redirect_uri: 'https://app.test/cb',
    scope: 'openid',
    nonce: null,
    code_challenge: null,
    auth_time: now,
    sid: null,
    parent_family_id: null,
    created_at: now,
    expires_at: now + ttlMs,
    used_at: null,
    family_id: null,
    response_sealed: null,
  });
  return hash;
}

describeBothDbs('oauth_codes and oauth_consents repositories', (h) => {
  it('A-05 floor: 200 parallel consume() of one code: exactly one gets the row', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const user = await createPerson(h(), { realmId: realm });
    const hash = await codeRow(h(), realm, client.id, user.id);
    const now = h().clock.now();
    const results = await Promise.all(Array.from({ length: 200 }, () => h().ctx.repos.oauthCodes.consume(hash, now)));
    const winners = results.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ code_hash: hash, account_id: user.id, used_at: now });
    // found afterwards, marked used, and never consumed again
    expect((await h().ctx.repos.oauthCodes.find(hash))?.used_at).toBe(now);
    expect(await h().ctx.repos.oauthCodes.consume(hash, now)).toBeUndefined();
  });

  it('an expired code is not consumed; setFamily, clearSealed and deleteExpired', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const user = await createPerson(h(), { realmId: realm });
    const repo = h().ctx.repos.oauthCodes;
    const expired = await codeRow(h(), realm, client.id, user.id, 1000);
    expect(await repo.consume(expired, h().clock.now() + 1000)).toBeUndefined();
    expect((await repo.find(expired))?.used_at).toBeNull();

    const live = await codeRow(h(), realm, client.id, user.id);
    const t = h().clock.now();
    expect(await repo.consume(live, t)).toBeDefined();
    await repo.setFamily(live, 'fam1', 'sealed');
    expect(await repo.find(live)).toMatchObject({ family_id: 'fam1', response_sealed: 'sealed' });
    expect(await repo.clearSealed(t)).toBe(0);
    expect(await repo.clearSealed(t + 1)).toBeGreaterThanOrEqual(1);
    expect((await repo.find(live))?.response_sealed).toBeNull();
    expect(await repo.deleteExpired(t + 61_000)).toBeGreaterThanOrEqual(2);
    expect(await repo.find(live)).toBeUndefined();
  });

  it('consents: 20 parallel upserts make one record; scopes replaced; listed by account and realm; realm deletion confined', async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    const ca = await makeClient(h(), a);
    const cb = await makeClient(h(), b);
    const ua = await createPerson(h(), { realmId: a });
    const ub = await createPerson(h(), { realmId: b });
    const repo = h().ctx.repos.oauthConsents;
    const now = h().clock.now();
    await Promise.all(Array.from({ length: 20 }, () => repo.upsert({ realmId: a, accountId: ua.id, clientRef: ca.id, scope: 'openid', now })));
    const later = await repo.upsert({ realmId: a, accountId: ua.id, clientRef: ca.id, scope: 'openid profile', now: now + 5 });
    expect(later).toMatchObject({ scope: 'openid profile', created_at: now, updated_at: now + 5 });
    await repo.upsert({ realmId: b, accountId: ub.id, clientRef: cb.id, scope: 'openid', now });
    const mine = await repo.listByAccount(ua.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ client_id: ca.clientId, username: ua.username, scope: 'openid profile' });
    expect(await repo.listByRealm(a, { limit: 10 })).toHaveLength(1);
    expect(await repo.countByRealm(a)).toBe(1);
    await repo.deleteAllInRealm(a);
    expect(await repo.find(ua.id, ca.id)).toBeUndefined();
    expect(await repo.find(ub.id, cb.id)).toBeDefined();
    expect(await repo.delete(ub.id, cb.id)).toBe(true);
    expect(await repo.delete(ub.id, cb.id)).toBe(false);
  });
});
