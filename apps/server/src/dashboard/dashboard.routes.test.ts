/**
 * The dashboard API (issue 11): the analysis counts exactly what happened (from the audit
 * trail), per realm and for every realm; the monitor reports this process's own requests and
 * the database's health to platform administrators only; the workplace shows the latest
 * events of the realms the caller may read. A-39: another realm's figures are 1003.
 */
import { expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, bindRole, createPerson, createRealm, createService, issueSession, randomMobile, signIn, smsCode, lastCode, tokenFor } from '../test/kit.js';

const DAY = 86_400_000;
const analysis = (realmId: string, q = '') => `/api/users/realms/${encodeURIComponent(realmId)}/dashboard/analysis${q}`;

async function record(h: Harness, realmId: string, action: string, result: 'ok' | 'fail' = 'ok', targetId = 'someone') {
  await h.ctx.services.audit.record({ realmId, actor: null, action, result, target: { type: 'account', id: targetId, name: targetId } });
}

describeBothDbs('dashboard API', (h) => {
  it('analysis: 3 ok and 2 failed password sign-ins, an SMS sign-in, an upstream sign-in, a registration and a lock today read back exactly', async () => {
    const realm = await createRealm(h());
    const a = await createPerson(h(), { realmId: realm });
    const mobile = randomMobile();
    const b = await createPerson(h(), { realmId: realm, phone: `+86${mobile}` });
    for (let i = 0; i < 2; i++) expect((await signIn(h(), a)).status).toBe(200);
    expect((await signIn(h(), b)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await signIn(h(), { ...a, password: `Wrong-${i}-pass` })).body.code).toBe(1010);
    const { serialNo } = await smsCode(h(), mobile, 'login', realm);
    const code = await lastCode(h(), `+86${mobile}`);
    expect((await as(h()).post('/api/users/auth/login/sms', { realm_id: realm, mobile, code, serialNo })).status).toBe(200);
    await record(h(), realm, 'registration');
    await record(h(), realm, 'signin.lock', 'ok', a.id);
    // a sign-in through the realm's upstream OpenID provider (issue 14) counts as its own method
    await record(h(), realm, 'signin.upstream', 'ok', a.id);
    // Something in another realm and something 8 days ago must not count.
    const other = await createRealm(h());
    await record(h(), other, 'signin.password', 'ok', 'x');

    const admin = await h().login();
    const res = await as(h(), admin).get(analysis(realm, '?days=7'));
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.series).toHaveLength(7);
    const today = d.series[6];
    expect(today.date).toBe(new Date(h().clock.now()).toISOString().slice(0, 10));
    expect(today.signIns).toEqual({
      password: { ok: 3, fail: 2 },
      sms: { ok: 1, fail: 0 },
      email: { ok: 0, fail: 0 },
      ftoken: { ok: 0, fail: 0 },
      upstream: { ok: 1, fail: 0 },
    });
    expect(today).toMatchObject({ registrations: 1, active: 2, locks: 1, failures: 2 });
    expect(d.totals).toEqual({ signInsOk: 5, signInsFail: 2, registrations: 1, active: 2, locks: 1, failures: 2 });
    expect(d.series.slice(0, 6).every((x: { active: number; failures: number }) => x.active === 0 && x.failures === 0)).toBe(true);
  });

  it('analysis: days follow the reader’s time zone and the period (7 / 30 / 90)', async () => {
    const realm = await createRealm(h());
    const real = h().clock.now();
    const todayUtc = Math.floor(real / DAY) * DAY;
    // The reading happens at noon UTC: run near midnight, "today at UTC+1" would already be tomorrow.
    const now = todayUtc + 12 * 3_600_000;
    try {
      // 23:30 UTC yesterday: yesterday in UTC, today at UTC+1
      h().clock.set(todayUtc - 30 * 60_000);
      await record(h(), realm, 'signin.email', 'ok', 'acc-1');
      // ten days ago: outside 7 days, inside 30
      h().clock.set(todayUtc - 10 * DAY + 3_600_000);
      await record(h(), realm, 'signin.email', 'fail', 'acc-2');
    } finally {
      h().clock.set(now);
    }
    const admin = await h().login();
    const utc = (await as(h(), admin).get(analysis(realm, '?days=7&utcOffset=0'))).body.data;
    expect(utc.series[5].signIns.email).toEqual({ ok: 1, fail: 0 });
    expect(utc.series[6].signIns.email).toEqual({ ok: 0, fail: 0 });
    expect(utc.totals.signInsFail).toBe(0);
    const east = (await as(h(), admin).get(analysis(realm, '?days=7&utcOffset=60'))).body.data;
    expect(east.series[6].signIns.email).toEqual({ ok: 1, fail: 0 });
    const month = (await as(h(), admin).get(analysis(realm, '?days=30'))).body.data;
    expect(month.series).toHaveLength(30);
    expect(month.totals).toMatchObject({ signInsOk: 1, signInsFail: 1, failures: 1, active: 1 });
    expect((await as(h(), admin).get(analysis(realm, '?days=12'))).body).toMatchObject({ code: 1009, errData: { field: 'days' } });
    h().clock.set(real);
  });

  it('analysis for every realm (*) adds the realms up; only administrators of master get it', async () => {
    const a = await createRealm(h());
    const b = await createRealm(h());
    const before = (await as(h(), await h().login()).get(analysis('*'))).body.data.totals.registrations as number;
    await record(h(), a, 'registration');
    await record(h(), b, 'registration');
    const admin = await h().login();
    expect((await as(h(), admin).get(analysis('*'))).body.data.totals.registrations).toBe(before + 2);

    const realmAdmin = await createPerson(h(), { realmId: a });
    await bindRole(h(), realmAdmin, 'realm-admin');
    const token = await tokenFor(h(), realmAdmin);
    expect((await as(h(), token).get(analysis(a))).status).toBe(200);
    for (const realm of ['*', b])
      expect((await as(h(), token).get(analysis(realm))).body).toMatchObject({ code: 1003, errData: { resource: 'dashboard', perm: 'query' } });
    expect((await as(h()).get(analysis(a))).body).toMatchObject({ code: 1001 });
  });

  it('monitor: this process’s requests, latency and database health for administrators of master; 1003 for a realm’s administrator', async () => {
    const admin = await h().login();
    for (let i = 0; i < 5; i++) await as(h()).get('/healthz');
    await as(h()).get('/api/users/nothing-here');
    const res = await as(h(), admin).get('/api/users/dashboard/monitor');
    expect(res.status).toBe(200);
    const m = res.body.data;
    expect(m.window.requests).toBeGreaterThanOrEqual(6);
    expect(m.window.perSecond).toBeGreaterThan(0);
    expect(m.window.p50).toBeGreaterThanOrEqual(0);
    expect(m.window.p99).toBeGreaterThanOrEqual(m.window.p50);
    expect(m.window.clientErrorRate).toBeGreaterThan(0);
    expect(m.series).toHaveLength(30);
    expect(m.series.reduce((n: number, s: { requests: number }) => n + s.requests, 0)).toBeGreaterThanOrEqual(6);
    expect(m.database).toMatchObject({ ok: true, dialect: h().dialect });
    expect(m.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(m.redis).toBeNull();

    const realm = await createRealm(h());
    const realmAdmin = await createPerson(h(), { realmId: realm });
    await bindRole(h(), realmAdmin, 'realm-admin');
    const token = await tokenFor(h(), realmAdmin);
    expect((await as(h(), token).get('/api/users/dashboard/monitor')).body).toMatchObject({ code: 1003 });
  });

  it('workplace: the latest events of the caller’s realms only; every realm for an administrator of master', async () => {
    const a = await createRealm(h());
    const b = await createRealm(h());
    await record(h(), a, 'test.in-a');
    await record(h(), b, 'test.in-b');
    const viewer = await createPerson(h(), { realmId: a });
    await bindRole(h(), viewer, 'realm-viewer');
    const token = await tokenFor(h(), viewer);
    const mine = (await as(h(), token).get('/api/users/dashboard/workplace')).body.data;
    expect(mine.realms).toEqual([a]);
    const actions = mine.latest.map((e: { action: string }) => e.action);
    expect(actions).toContain('test.in-a');
    expect(actions).not.toContain('test.in-b');
    expect(mine.latest.every((e: { realmId: string }) => e.realmId === a)).toBe(true);

    const plain = await createPerson(h(), { realmId: b });
    const nobody = (await as(h(), await tokenFor(h(), plain)).get('/api/users/dashboard/workplace')).body.data;
    expect(nobody).toEqual({ realms: [], latest: [] });

    const all = (await as(h(), await h().login()).get('/api/users/dashboard/workplace')).body.data;
    expect(all.realms).toEqual(['*']);
    expect(all.latest.length).toBeGreaterThan(0);
  });

  it('A-40 a service account of a master administrator, granted person.query only, reads no audit trail: empty workplace, 1003 on every realm (*)', async () => {
    await record(h(), await createRealm(h()), 'test.elsewhere');
    const owner = await createPerson(h());
    await bindRole(h(), owner, 'admin');
    const robot = await createService(h(), owner, 'dash.robot', { forcePassword: false });
    await h().ctx.repos.serviceAccounts.saveServiceGrants(
      { realmId: 'master', accountId: robot.id, ownerId: owner.id },
      [{ permissionId: 'person', actions: ['query'] }],
      h().clock.now(),
    );
    const token = await issueSession(h(), robot);
    expect((await as(h(), token).get('/api/users/dashboard/workplace')).body.data).toEqual({ realms: [], latest: [] });
    expect((await as(h(), token).get(analysis('*'))).body).toMatchObject({ code: 1003 });
    expect((await as(h(), token).get('/api/users/realms/*/audit')).body).toMatchObject({ code: 1003 });
  });
});
