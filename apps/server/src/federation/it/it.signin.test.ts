/**
 * IT-interface sign-in end to end against the reference backend (issue 14): password in JSON
 * and form post, each country-code option, two regions, A-30 (same answer as 1010's message,
 * same work for unknown user and wrong password). Loopback backends: the operator flag is on.
 */
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { createPerson, createService, signIn } from '../../test/kit.js';
import { accountsOf, itGroup, itRealm, startReference, type RefBackend } from './it.testkit.js';

const PASSWORD = 'Backend-Pass-1';
let ref: RefBackend;
let ref2: RefBackend;

beforeAll(async () => {
  ref = await startReference();
  // a second region: the same port on another loopback address, its own users
  ref2 = await startReference({ host: '127.0.0.2', port: ref.port });
});
afterAll(async () => {
  await ref.close();
  await ref2.close();
});

const uniq = () => Math.random().toString(36).slice(2, 10);
const mobile = () => `138${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

describeBothDbs('IT-interface password sign-in', (h) => {
  it('signs in through the backend (JSON) and keeps one shadow account with the backend id, no local password', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const username = `alice${uniq()}`;
    const user = await ref.addUser({ username, password: PASSWORD, email: `a${uniq()}@example.test` });
    const first = await signIn(h(), { username, password: PASSWORD, realmId });
    expect(first.status).toBe(200);
    expect(first.body.data.token).toEqual(expect.any(String));
    const second = await signIn(h(), { username, password: PASSWORD, realmId });
    expect(second.status).toBe(200);
    const rows = await accountsOf(h(), realmId);
    expect(rows.map((r) => ({ id: r.id, password_hash: r.password_hash }))).toEqual([{ id: user.userId, password_hash: null }]);
    const last = (await ref.requests()).at(-1)!;
    expect(last).toMatchObject({ path: '/it/login', contentType: 'application/json', fields: { realm: 'tenant-1', password: '***' } });
  });

  it('A-31 20 parallel first sign-ins of one backend user: the throttle checks a few (the rest 1300, as for a local account), one shadow account, never a 500', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const username = `race${uniq()}`;
    const user = await ref.addUser({ username, password: PASSWORD });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(h(), { username, password: PASSWORD, realmId }, { ip: `10.77.0.${i + 1}` })));
    const outcomes = answers.map((r) => `${r.status} ${r.body.code}`);
    expect(outcomes.filter((o) => o === '200 0').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((o) => o !== '200 0' && o !== '400 1300')).toEqual([]);
    // only the admitted guesses reach the backend (its log keeps the last 50 requests: 20 fit)
    const calls = (await ref.requests()).filter((r) => (r.fields as { account?: string } | undefined)?.account === username);
    expect(calls.length).toBe(outcomes.filter((o) => o === '200 0').length);
    expect((await accountsOf(h(), realmId)).map((r) => r.id)).toEqual([user.userId]);
  });

  it('posts the login as a form when loginpathUseFormPost is on', async () => {
    const realmId = await itRealm(h(), itGroup('default', ref.port, { loginpathUseFormPost: true }));
    const username = `form${uniq()}`;
    await ref.addUser({ username, password: PASSWORD });
    const res = await signIn(h(), { username, password: PASSWORD, realmId });
    expect(res.status).toBe(200);
    expect((await ref.requests()).at(-1)).toMatchObject({ path: '/it/login', contentType: 'application/x-www-form-urlencoded', fields: { account: username } });
  });

  it('A-30: wrong password and unknown user give 1300 with 1010 message, identical bodies, one backend call each, no shadow account', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const username = `carol${uniq()}`;
    await ref.addUser({ username, password: PASSWORD });
    const before = (await ref.requests()).length;
    const wrong = await signIn(h(), { username, password: 'Not-The-Password-9', realmId });
    const unknown = await signIn(h(), { username: `nobody${uniq()}`, password: 'Not-The-Password-9', realmId });
    const local = await signIn(h(), { username: `nobody${uniq()}`, password: 'Not-The-Password-9' });
    expect(wrong).toEqual({ status: 400, body: { result: 'fail', code: 1300, errno: 1300, error: 'bad_credentials', msg: local.body.msg } });
    expect(unknown).toEqual(wrong);
    expect(local.body.code).toBe(1010);
    // the same work on our side for both: exactly one call to the backend each
    expect((await ref.requests()).length - before).toBe(2);
    expect(await accountsOf(h(), realmId)).toEqual([]);
  });

  it('country-code options: none, loginpathNeedCountryCode, loginpathCountryCodeRewrite', async () => {
    const national = mobile();
    const dave = await ref.addUser({ username: `dave${uniq()}`, password: PASSWORD, phone: `+86${national}` });
    const plain = await itRealm(h(), itGroup('ecogloble', ref.port));
    const needCc = await itRealm(h(), itGroup('ecogloble', ref.port, { loginpathNeedCountryCode: true }));
    // useOriginID off here: account ids are unique over all realms, and the needCc realm holds this backend id already
    const rewrite = await itRealm(h(), itGroup('ecogloble', ref.port, { loginpathCountryCodeRewrite: true, useOriginID: false }));

    // without either option the national number goes as typed: the backend cannot tell which country
    expect((await signIn(h(), { username: national, password: PASSWORD, realmId: plain })).body.code).toBe(1300);
    expect((await ref.requests()).at(-1)!.fields).toEqual({ realm: 'tenant-1', account: national, password: '***' });

    expect((await signIn(h(), { username: national, password: PASSWORD, realmId: needCc })).status).toBe(200);
    expect((await ref.requests()).at(-1)!.fields).toEqual({ realm: 'tenant-1', account: national, password: '***', countryCode: '86' });

    expect((await signIn(h(), { username: national, password: PASSWORD, realmId: rewrite })).status).toBe(200);
    expect((await ref.requests()).at(-1)!.fields).toEqual({ realm: 'tenant-1', account: `+86${national}`, password: '***' });
    const shadow = (await accountsOf(h(), rewrite))[0]!;
    expect(shadow.phone).toBe(`+86${national}`);
    expect(shadow.id).not.toBe(dave.userId);
    // the same backend user in another realm with useOriginID: the id is taken, never shared
    const clash = await itRealm(h(), itGroup('ecogloble', ref.port, { loginpathCountryCodeRewrite: true }));
    expect((await signIn(h(), { username: national, password: PASSWORD, realmId: clash })).body.code).toBe(1205);
  });

  it('two regions: the sign-in country picks the region host, defaultRegion otherwise', async () => {
    const group = itGroup('default', ref.port, {
      regions: [
        { region: '86', host: '127.0.0.1' },
        { region: '1', host: '127.0.0.2' },
      ],
    });
    const realmId = await itRealm(h(), group);
    const username = `erin${uniq()}`;
    await ref2.addUser({ username, password: PASSWORD });
    // no country: the default region's backend, which has no such user
    expect((await signIn(h(), { username, password: PASSWORD, realmId })).body.code).toBe(1300);
    const res = await signIn(h(), { username, password: PASSWORD, realmId }, { country: '1' });
    expect(res.status).toBe(200);
    expect((await ref2.requests()).at(-1)).toMatchObject({ path: '/it/login', host: `127.0.0.2:${ref.port}` });
    const link = await h().dbh.db.selectFrom('it_shadow_links').selectAll().where('realm_id', '=', realmId).executeTakeFirstOrThrow();
    expect(link.region).toBe('1');
  });

  it('A-31: throttling and lockout apply: a blocked guess is 1300 with the lock notice and never reaches the backend', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const username = `frank${uniq()}`;
    await ref.addUser({ username, password: PASSWORD });
    let locked: Awaited<ReturnType<typeof signIn>> | undefined;
    for (let i = 0; i < 12 && !locked; i++) {
      const res = await signIn(h(), { username, password: `Wrong-Pass-${i}`, realmId });
      expect(res.body.code).toBe(1300);
      if (res.body.errData?.locked) locked = res;
    }
    expect(locked?.body.errData).toMatchObject({ locked: true, retryAfter: expect.any(Number) });
    const before = (await ref.requests()).length;
    const blocked = await signIn(h(), { username, password: PASSWORD, realmId });
    expect(blocked.body).toMatchObject({ code: 1300, errData: { locked: true } });
    expect((await ref.requests()).length).toBe(before);
  });

  it("a service account (owner/subname) signs in with umbo's own password, never at the backend; a wrong one is 1010", async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const owner = await createPerson(h(), { realmId, password: null });
    const svc = await createService(h(), owner, 'robot1');
    expect((await signIn(h(), { username: svc.username, password: svc.password, realmId })).status).toBe(200);
    expect((await signIn(h(), { username: svc.username, password: 'Not-The-Password-9', realmId })).body.code).toBe(1010);
    const asked = (await ref.requests()).filter((r) => (r.fields as { account?: string } | undefined)?.account === svc.username);
    expect(asked).toEqual([]);
  });

  it('a realm of type default without a backend group stays the built-in store', async () => {
    const res = await signIn(h(), { username: 'admin', password: 'wrong-password-1' });
    expect(res.body.code).toBe(1010);
  });
});
