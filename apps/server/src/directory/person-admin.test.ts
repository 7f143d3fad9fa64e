/**
 * One person account at a time, over HTTP on both databases (issue 11): create, read, edit,
 * enable/disable/delete (sessions end), a temporary password (forced change), sessions and
 * OTP; the audit event of each change; who may (A-38 realm-viewer, another realm's admin),
 * realm isolation and no escalation or mass assignment.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, createPerson, createRealm, enableOtp, issueSession, PASSWORD, randomEmail, randomName, signIn, tokenFor } from '../test/kit.js';
import { accountEvents, personCount, personPath, personsPath, roleHolder, uniqueMobile } from './person.testkit.js';

describeBothDbs('person accounts: one account', (h) => {
  const stored = (realmId: string, id: string) => h().ctx.repos.accounts.findAccountById(realmId, id);

  it('creates a person (phone to E.164, email folded for lookups), never answers a password hash, and records account.create', async () => {
    const realmId = await createRealm(h());
    const { token, person: admin } = await roleHolder(h(), realmId, 'realm-admin');
    const username = randomName('new_');
    const mobile = uniqueMobile();
    const res = await as(h(), token).post(personsPath(realmId), { username, email: 'New.Person@Example.TEST', phone: mobile, password: 'Temp-Pass-8812' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      username,
      email: 'New.Person@Example.TEST',
      phone: `+86${mobile}`,
      disabled: false,
      activated: true,
      forcePassword: true,
      hasPassword: true,
      realmId,
    });
    expect(res.text).not.toMatch(/argon2|password_hash|passwordHash/);
    const row = await stored(realmId, res.body.data.id);
    expect(row).toMatchObject({ email_norm: 'new.person@example.test', force_password: 1, kind: 'person', owner_id: null });
    const events = await accountEvents(h(), realmId);
    expect(events.at(-1)).toMatchObject({ action: 'account.create', actor: { id: admin.id }, target: { id: row!.id, name: username }, result: 'ok' });
    expect(events.at(-1)!.changes).toEqual(['username', 'email', 'phone', 'password']);
    expect(JSON.stringify(events.at(-1))).not.toContain('Temp-Pass-8812');
    // The temporary password signs in, and then everything but the password change is refused (1008).
    const signedIn = await signIn(h(), { username, password: 'Temp-Pass-8812', realmId });
    expect(signedIn.status).toBe(200);
    const blocked = await as(h(), signedIn.body.data.token).get('/api/users/account/sessions');
    expect(blocked.body).toMatchObject({ code: 1008 });
  });

  it('A-40: a body naming realmId, kind, owner_id, isSuperAdmin or permissions is refused with 1009 naming it, and nothing is created', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    for (const extra of [
      { realmId: 'master' },
      { kind: 'service' },
      { owner_id: 'x' },
      { isSuperAdmin: true },
      { permissions: ['*'] },
      { password_hash: 'x' },
    ]) {
      const res = await as(h(), token).post(personsPath(realmId), { username: randomName('m_'), ...extra });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 1009, errData: { field: Object.keys(extra)[0] } });
    }
    expect(await personCount(h(), realmId)).toBe(0);
    const person = await createPerson(h(), { realmId });
    const edit = await as(h(), token).patch(personPath(realmId, person.id), { email: randomEmail(), realmId: 'master' });
    expect(edit.body).toMatchObject({ code: 1009, errData: { field: 'realmId' } });
    expect((await stored(realmId, person.id))!.email).toBeNull();
  });

  it('SPEC §5 on create: bad user name, email or phone is 1009 naming the field; a taken one is 1205 naming it', async () => {
    const token = await h().login();
    const realmId = await createRealm(h());
    for (const [body, field] of [
      [{ username: 'ab' }, 'username'],
      [{ username: 'a b c' }, 'username'],
      [{ username: randomName(), email: 'not-an-email' }, 'email'],
      [{ username: randomName(), phone: '12345678901' }, 'phone'],
      [{ username: randomName(), password: '12345' }, 'password'],
    ] as const) {
      const res = await as(h(), token).post(personsPath(realmId), body);
      expect(res.body, JSON.stringify(body)).toMatchObject({ code: 1009, errData: { field } });
    }
    const taken = await createPerson(h(), { realmId, email: randomEmail(), phone: `+86${uniqueMobile()}` });
    for (const [body, field] of [
      [{ username: taken.username.toUpperCase() }, 'username'],
      [{ username: randomName(), email: taken.row.email!.toUpperCase() }, 'email'],
      [{ username: randomName(), phone: taken.row.phone!.slice(3) }, 'phone'],
    ] as const) {
      const res = await as(h(), token).post(personsPath(realmId), body);
      expect(res.status).toBe(409);
      expect(res.body, JSON.stringify(body)).toMatchObject({ code: 1205, errData: { field } });
    }
    const weak = await as(h(), token).post(personsPath(realmId), { username: randomName(), password: 'password' });
    expect(weak.body).toMatchObject({ code: 1021 });
    expect(await personCount(h(), realmId)).toBe(1);
  });

  it('answers SPEC §3 fields with last login, registration area and time; edits email and phone (null unbinds), recording which fields changed', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const person = await createPerson(h(), { realmId, registArea: '86', email: randomEmail() });
    await signIn(h(), { ...person, realmId });
    const got = await as(h(), token).get(personPath(realmId, person.id));
    expect(got.body.data).toMatchObject({ id: person.id, username: person.username, registArea: '86', otpEnabled: false, createdAt: person.row.created_at });
    expect(got.body.data.lastLoginAt).toEqual(expect.any(Number));
    const mobile = uniqueMobile();
    const edited = await as(h(), token).patch(personPath(realmId, person.id), { email: null, phone: `+86 ${mobile.slice(0, 3)} ${mobile.slice(3)}` });
    expect(edited.body.data).toMatchObject({ email: null, phone: `+86${mobile}` });
    const events = await accountEvents(h(), realmId);
    expect(events.at(-1)).toMatchObject({ action: 'account.update', changes: ['email', 'phone'] });
    const other = await createPerson(h(), { realmId, email: randomEmail() });
    const clash = await as(h(), token).patch(personPath(realmId, person.id), { email: other.row.email });
    expect(clash.body).toMatchObject({ code: 1205, errData: { field: 'email' } });
  });

  it("disable ends the account's sessions at once; enable lets it sign in again; each is recorded", async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const person = await createPerson(h(), { realmId });
    const session = await issueSession(h(), person);
    expect((await as(h(), session).get('/api/users/account')).status).toBe(200);
    const off = await as(h(), token).post(`${personPath(realmId, person.id)}/disable`);
    expect(off.body.data).toMatchObject({ disabled: true });
    expect((await as(h(), session).get('/api/users/account')).status).toBe(401);
    expect((await signIn(h(), { ...person, realmId })).body).toMatchObject({ code: 1011 });
    // Events of one millisecond have no order among them: the next change comes a moment later.
    h().clock.advance(1000);
    const on = await as(h(), token).post(`${personPath(realmId, person.id)}/enable`);
    expect(on.body.data).toMatchObject({ disabled: false });
    expect((await signIn(h(), { ...person, realmId })).status).toBe(200);
    const actions = (await accountEvents(h(), realmId)).filter((e) => e.target?.id === person.id).map((e) => e.action);
    expect(actions).toEqual(['account.disable', 'account.enable']);
  });

  it('delete removes the account with its sessions; then it is 1207', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const person = await createPerson(h(), { realmId });
    const session = await issueSession(h(), person);
    const res = await as(h(), token).delete(personPath(realmId, person.id));
    expect(res.body).toEqual({ result: 'ok', code: 0, data: { deleted: true } });
    expect(await stored(realmId, person.id)).toBeUndefined();
    expect((await as(h(), session).get('/api/users/account')).status).toBe(401);
    expect((await as(h(), token).get(personPath(realmId, person.id))).body).toMatchObject({ code: 1207 });
    expect((await accountEvents(h(), realmId)).at(-1)).toMatchObject({ action: 'account.delete', target: { id: person.id, name: person.username } });
  });

  it('a temporary password forces a change at the next sign-in and ends every session; a weak one is 1021', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const person = await createPerson(h(), { realmId });
    const session = await issueSession(h(), person);
    const weak = await as(h(), token).post(`${personPath(realmId, person.id)}/password`, { password: '123456' });
    expect(weak.body).toMatchObject({ code: 1021 });
    const res = await as(h(), token).post(`${personPath(realmId, person.id)}/password`, { password: 'Fresh-Temp-5521' });
    expect(res.body.data).toEqual({ forcePassword: true });
    expect((await as(h(), session).get('/api/users/account')).status).toBe(401);
    expect((await signIn(h(), { ...person, realmId })).body).toMatchObject({ code: 1010 });
    const again = await signIn(h(), { username: person.username, password: 'Fresh-Temp-5521', realmId });
    expect((await as(h(), again.body.data.token).get('/api/users/account/sessions')).body).toMatchObject({ code: 1008 });
    const changed = await as(h(), again.body.data.token).post('/api/users/account/password', {
      oldPassword: 'Fresh-Temp-5521',
      newPassword: 'My-Own-Pass-7781',
    });
    expect(changed.status).toBe(200);
    expect((await stored(realmId, person.id))!.force_password).toBe(0);
    const event = (await accountEvents(h(), realmId)).find((e) => e.action === 'account.password_reset_by_admin');
    expect(event).toMatchObject({ target: { id: person.id }, changes: ['password', 'forcePassword'], detail: { sessionsRevoked: 1 } });
    expect(JSON.stringify(event)).not.toContain('Fresh-Temp');
  });

  it("lists an account's sessions and ends one or all of them", async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const person = await createPerson(h(), { realmId });
    const [s1, s2, s3] = [await issueSession(h(), person), await issueSession(h(), person), await issueSession(h(), person)];
    const list = await as(h(), token).get(`${personPath(realmId, person.id)}/sessions`);
    expect(list.body.data.total).toBe(3);
    expect(Object.keys(list.body.data.items[0]).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'ip', 'lastSeenAt', 'userAgent']);
    const one = await as(h(), token).delete(`${personPath(realmId, person.id)}/sessions/${list.body.data.items[0].id}`);
    expect(one.body.data).toEqual({ revoked: 1 });
    const alive = await Promise.all([s1, s2, s3].map(async (t) => (await as(h(), t).get('/api/users/account')).status));
    expect(alive.sort()).toEqual([200, 200, 401]);
    const unknown = await as(h(), token).delete(`${personPath(realmId, person.id)}/sessions/nosuchsession`);
    expect(unknown.body).toMatchObject({ code: 1004 });
    h().clock.advance(1000);
    const all = await as(h(), token).delete(`${personPath(realmId, person.id)}/sessions`);
    expect(all.body.data).toEqual({ revoked: 2 });
    expect((await as(h(), s1).get('/api/users/account')).status).toBe(401);
    expect((await accountEvents(h(), realmId)).filter((e) => e.action === 'account.sessions_revoked').map((e) => e.detail.count)).toEqual([1, 2]);
  });

  it('shows the OTP state and resets it (off, recovery codes gone)', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const person = await createPerson(h(), { realmId });
    await enableOtp(h(), await tokenFor(h(), person), PASSWORD);
    const state = await as(h(), token).get(`${personPath(realmId, person.id)}/otp`);
    expect(state.body.data).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10 });
    expect((await as(h(), token).get(personPath(realmId, person.id))).body.data.otpEnabled).toBe(true);
    const reset = await as(h(), token).delete(`${personPath(realmId, person.id)}/otp`);
    expect(reset.body.data).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0 });
    expect((await signIn(h(), { ...person, realmId })).status).toBe(200);
    expect((await accountEvents(h(), realmId)).at(-1)).toMatchObject({ action: 'account.otp_reset', target: { id: person.id } });
  });

  it('1042: an administrator cannot disable, delete or reset their own account here', async () => {
    const realmId = await createRealm(h());
    const { token, person: me } = await roleHolder(h(), realmId, 'realm-admin');
    for (const [method, suffix, body] of [
      ['post', '/disable', undefined],
      ['delete', '', undefined],
      ['post', '/password', { password: 'Another-Pass-1234' }],
      ['delete', '/otp', undefined],
    ] as const) {
      const res = await as(h(), token)[method](`${personPath(realmId, me.id)}${suffix}`, body);
      expect(res.body, suffix).toMatchObject({ code: 1042 });
    }
    expect(await stored(realmId, me.id)).toMatchObject({ disabled: 0 });
  });

  it('A-38: a realm-viewer reads but every write is 1003 and changes nothing', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-viewer');
    const person = await createPerson(h(), { realmId });
    expect((await as(h(), token).get(personPath(realmId, person.id))).status).toBe(200);
    expect((await as(h(), token).get(personsPath(realmId))).status).toBe(200);
    const before = await stored(realmId, person.id);
    const writes: [method: 'post' | 'patch' | 'delete', url: string, body?: object][] = [
      ['post', personsPath(realmId), { username: randomName() }],
      ['patch', personPath(realmId, person.id), { email: randomEmail() }],
      ['post', `${personPath(realmId, person.id)}/disable`],
      ['delete', personPath(realmId, person.id)],
      ['post', `${personPath(realmId, person.id)}/password`, { password: 'Viewer-Set-9912' }],
      ['delete', `${personPath(realmId, person.id)}/sessions`],
      ['delete', `${personPath(realmId, person.id)}/otp`],
      ['post', `${personsPath(realmId)}/bulk/disable`, { ids: [person.id] }],
    ];
    for (const [method, url, body] of writes) {
      const res = await as(h(), token)[method](url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body, `${method} ${url}`).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'person' } });
    }
    expect(await stored(realmId, person.id)).toEqual(before);
    expect(await personCount(h(), realmId)).toBe(2);
  });

  it("A-39: another realm's administrator gets 1003; a realm's id used through another realm's path is 1207 and nothing changes", async () => {
    const [a, b] = [await createRealm(h()), await createRealm(h())];
    const { token: adminB } = await roleHolder(h(), b, 'realm-admin');
    const inA = await createPerson(h(), { realmId: a });
    const inB = await createPerson(h(), { realmId: b });
    expect((await as(h(), adminB).post(`${personPath(a, inA.id)}/disable`)).body).toMatchObject({ code: 1003 });
    expect((await as(h(), adminB).get(personsPath(a))).body).toMatchObject({ code: 1003 });
    // B's administrator, B's path, A's account id: not found, A's account untouched.
    for (const [method, suffix] of [
      ['get', ''],
      ['post', '/disable'],
      ['delete', ''],
      ['get', '/sessions'],
    ] as const) {
      const res = await as(h(), adminB)[method](`${personPath(b, inA.id)}${suffix}`);
      expect(res.body, suffix).toMatchObject({ code: 1207 });
    }
    const bulk = await as(h(), adminB).post(`${personsPath(b)}/bulk/delete`, { ids: [inA.id, inB.id] });
    expect(bulk.body.data).toEqual({ done: 1, notFound: [inA.id] });
    expect(await stored(a, inA.id)).toMatchObject({ disabled: 0 });
    // The platform admin through B's path with A's id: the same.
    const master = await h().login();
    expect((await as(h(), master).post(`${personPath(b, inA.id)}/disable`)).body).toMatchObject({ code: 1207 });
    expect(await stored(a, inA.id)).toMatchObject({ disabled: 0 });
  });

  it('A-40: a realm-admin of master cannot act on the platform admin (1003), so cannot take it over', async () => {
    const { token } = await roleHolder(h(), 'master', 'realm-admin');
    const admin = await h().ctx.repos.accounts.findAccountByUsername('master', 'admin');
    const res = await as(h(), token).post(`${personPath('master', admin!.id)}/password`, { password: 'Taken-Over-7712' });
    expect(res.body).toMatchObject({ code: 1003, errData: { resource: 'person', perm: 'update' } });
    expect((await as(h(), token).post(`${personPath('master', admin!.id)}/disable`)).body).toMatchObject({ code: 1003 });
    expect((await h().login()).length).toBeGreaterThan(10);
  });
});
