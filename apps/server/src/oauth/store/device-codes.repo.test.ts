/**
 * oauth_device_codes (RFC 8628): one decision per user code and one redemption per approval,
 * decided by the database however many requests run at once (both databases); the poll gate
 * that tells a poll within the interval from one after it; sweeping and realm deletion.
 */
import { expect, it } from 'vitest';
import { randomString } from '../../platform/crypto.js';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { createPerson, createRealm } from '../../test/kit.js';
import { makeClient } from '../test/authorize.testkit.js';

async function deviceRow(h: Harness, realmId: string, clientRef: string, o: { ttlMs?: number; intervalSec?: number } = {}) {
  const now = h.clock.now();
  const device = h.ctx.secrets.hash('oauth-device', randomString(43));
  const user = h.ctx.secrets.hash('oauth-user-code', randomString(8, 'BCDFGHJKLMNPQRSTVWXZ'));
  await h.ctx.repos.oauthDeviceCodes.insert({
    device_code_hash: device,
    user_code_hash: user,
    realm_id: realmId,
    client_ref: clientRef,
    scope: 'openid',
    status: 'pending',
    account_id: null,
    auth_time: null,
    interval_sec: o.intervalSec ?? 5,
    last_polled_at: null,
    created_at: now,
    expires_at: now + (o.ttlMs ?? 600_000),
  });
  return { device, user };
}

describeBothDbs('oauth_device_codes repository', (h) => {
  it('100 parallel decisions on one user code: exactly one decides it, approve or deny', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const user = await createPerson(h(), { realmId: realm });
    const { user: userHash, device } = await deviceRow(h(), realm, client.id);
    const now = h().clock.now();
    const repo = h().ctx.repos.oauthDeviceCodes;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        repo.decide(userHash, { status: i % 2 ? 'approved' : 'denied', accountId: user.id, authTime: i % 2 ? now : null }, now),
      ),
    );
    const winners = results.filter(Boolean);
    expect(winners).toHaveLength(1);
    const stored = await repo.findByDeviceCode(device);
    expect(stored?.status).toBe(winners[0]!.status);
    expect(stored?.account_id).toBe(user.id);
  });

  it('200 parallel redemptions of one approval: exactly one gets the row; none of a pending, denied or expired code', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const user = await createPerson(h(), { realmId: realm });
    const repo = h().ctx.repos.oauthDeviceCodes;
    const now = h().clock.now();
    const approved = await deviceRow(h(), realm, client.id);
    const pending = await deviceRow(h(), realm, client.id);
    const denied = await deviceRow(h(), realm, client.id);
    const late = await deviceRow(h(), realm, client.id, { ttlMs: 1000 });
    expect(await repo.decide(approved.user, { status: 'approved', accountId: user.id, authTime: now - 5000 }, now)).toBeTruthy();
    expect(await repo.decide(denied.user, { status: 'denied', accountId: user.id, authTime: null }, now)).toBeTruthy();
    expect(await repo.decide(late.user, { status: 'approved', accountId: user.id, authTime: now }, now)).toBeTruthy();

    const results = await Promise.all(Array.from({ length: 200 }, () => repo.redeem(approved.device, now)));
    const winners = results.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ status: 'used', account_id: user.id, auth_time: now - 5000 });
    expect(await repo.redeem(approved.device, now)).toBeUndefined();
    expect(await repo.redeem(pending.device, now)).toBeUndefined();
    expect(await repo.redeem(denied.device, now)).toBeUndefined();
    expect(await repo.redeem(late.device, now + 1000)).toBeUndefined();
    // a decided or expired code cannot be decided again
    expect(await repo.decide(approved.user, { status: 'denied', accountId: user.id, authTime: null }, now)).toBeUndefined();
    const fresh = await deviceRow(h(), realm, client.id, { ttlMs: 1000 });
    expect(await repo.decide(fresh.user, { status: 'approved', accountId: user.id, authTime: now }, now + 1000)).toBeUndefined();
  });

  it('the poll gate: the first poll passes, the next only after interval_sec; slowDown adds to the interval; 50 parallel polls pass once', async () => {
    const realm = await createRealm(h());
    const client = await makeClient(h(), realm);
    const repo = h().ctx.repos.oauthDeviceCodes;
    const t0 = h().clock.now();
    const { device } = await deviceRow(h(), realm, client.id, { intervalSec: 5 });
    expect((await repo.admitPoll(device, t0))?.last_polled_at).toBe(t0);
    expect(await repo.admitPoll(device, t0 + 4999)).toBeUndefined();
    expect(await repo.slowDown(device, 5, t0 + 4999)).toBe(10);
    // measured from the slowed-down poll, with the new interval
    expect(await repo.admitPoll(device, t0 + 4999 + 9999)).toBeUndefined();
    const at = t0 + 4999 + 10_000;
    const results = await Promise.all(Array.from({ length: 50 }, () => repo.admitPoll(device, at)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await repo.findByDeviceCode(device))?.interval_sec).toBe(10);
  });

  it('deleteExpired sweeps expired codes only; deleteAllInRealm stays in its realm', async () => {
    const realmA = await createRealm(h());
    const realmB = await createRealm(h());
    const clientA = await makeClient(h(), realmA);
    const clientB = await makeClient(h(), realmB);
    const repo = h().ctx.repos.oauthDeviceCodes;
    const now = h().clock.now();
    const old = await deviceRow(h(), realmA, clientA.id, { ttlMs: 1000 });
    const live = await deviceRow(h(), realmA, clientA.id);
    const other = await deviceRow(h(), realmB, clientB.id);
    expect(await repo.deleteExpired(now + 2000)).toBeGreaterThanOrEqual(1);
    expect(await repo.findByDeviceCode(old.device)).toBeUndefined();
    expect(await repo.findByDeviceCode(live.device)).toBeDefined();
    await repo.deleteAllInRealm(realmA);
    expect(await repo.findByUserCode(live.user)).toBeUndefined();
    expect(await repo.findByUserCode(other.user)).toBeDefined();
  });
});
