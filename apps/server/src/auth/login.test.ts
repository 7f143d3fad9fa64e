/**
 * Password sign-in (issue 3): argon2id parameters and rehash, enumeration-proof
 * answers, service accounts as owner/subname with a forced first password change,
 * logout. Both databases.
 */
import { hash, verify } from '@node-rs/argon2';
import { beforeEach, expect, it, vi } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { normaliseUsername } from '../accounts/accounts.repo.js';
import { as, captcha, createPerson, createRealm, createService, randomName, signIn, tokenFor } from '../test/kit.js';
import * as passwords from './passwords.js';

// Spies wrap the real functions (no fake hashing): they only count calls.
vi.mock('./passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('./passwords.js')>();
  return { ...real, burnPasswordCheck: vi.fn(real.burnPasswordCheck), verifyPassword: vi.fn(real.verifyPassword), hashPassword: vi.fn(real.hashPassword) };
});

const CURRENT = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=1\$/;
const BAD = { status: 400, body: { result: 'fail', code: 1010, errno: 1010, error: 'bad_credentials', msg: 'Incorrect account or password' } };

describeBothDbs('password sign-in', (h) => {
  beforeEach(() => vi.mocked(passwords.burnPasswordCheck).mockClear());

  async function storedHash(id: string, realmId = 'master') {
    return (await h().ctx.repos.accounts.findAccountById(realmId, id))!.password_hash!;
  }

  /** Until the answer is called, the audit row of a right password of `accountId` cannot be written. */
  function failSignInAudit(accountId: string): () => void {
    const repo = h().ctx.repos.audit;
    const insert = repo.insertAuditEvent.bind(repo);
    const spy = vi.spyOn(repo, 'insertAuditEvent').mockImplementation(async (row, trx) => {
      if (row.action === 'signin.password' && row.target_id === accountId && row.result === 'ok') throw new Error('audit store down');
      return insert(row, trx);
    });
    return () => spy.mockRestore();
  }

  it('A-28 new hashes are argon2id v19 with m ≥ 19456, t ≥ 2, p = 1', async () => {
    const a = await createPerson(h());
    const m = CURRENT.exec(await storedHash(a.id));
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(19456);
    expect(Number(m![2])).toBeGreaterThanOrEqual(2);
  });

  it('A-28 an older-parameter hash verifies and is rehashed at sign-in', async () => {
    const old = await hash('Older-Params-55', { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    const a = await createPerson(h(), { password: 'Older-Params-55', passwordHash: old });
    expect(await storedHash(a.id)).toMatch(/^\$argon2id\$v=19\$m=4096,t=1,p=1\$/);
    expect((await signIn(h(), a)).status).toBe(200);
    const now = await storedHash(a.id);
    expect(now).toMatch(CURRENT);
    expect(now).not.toBe(old);
    expect(await verify(now, 'Older-Params-55')).toBe(true);
    expect((await signIn(h(), a)).status).toBe(200);
  });

  it('A-28 64- and 128-character passwords round-trip exactly (no truncation, no case folding)', async () => {
    for (const len of [64, 128]) {
      const password = Array.from({ length: len }, (_, i) => 'aB3$é'[i % 5]).join('');
      const a = await createPerson(h(), { password });
      expect((await signIn(h(), a)).status).toBe(200);
      expect(await signIn(h(), { ...a, password: password.slice(0, -1) })).toEqual(BAD);
      expect(await signIn(h(), { ...a, password: password.toUpperCase() })).toEqual(BAD);
      expect(await signIn(h(), { ...a, password: password.slice(0, 72) + 'x'.repeat(len - 72 > 0 ? len - 72 : 0) })).toEqual(
        len > 72 ? BAD : { status: 200, body: expect.anything() },
      );
    }
  });

  it('A-28 a password over 4096 bytes is refused with 400 before any hashing', async () => {
    const a = await createPerson(h());
    vi.mocked(passwords.verifyPassword).mockClear();
    const res = await signIn(h(), { ...a, password: 'é'.repeat(2049) }); // 4098 bytes
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'fail', code: 1009, errData: { field: 'password' } });
    expect(passwords.verifyPassword).not.toHaveBeenCalled();
    expect(passwords.burnPasswordCheck).not.toHaveBeenCalled();
  });

  it('A-30 unknown user, wrong password, disabled and unactivated with a wrong password answer identically', async () => {
    const a = await createPerson(h());
    const disabled = await createPerson(h(), { disabled: true });
    const unactivated = await createPerson(h(), { activated: false });
    const answers = [
      await signIn(h(), { ...a, username: randomName('nobody') }),
      await signIn(h(), { ...a, password: 'Wrong-Password-1' }),
      await signIn(h(), { ...disabled, password: 'Wrong-Password-1' }),
      await signIn(h(), { ...unactivated, password: 'Wrong-Password-1' }),
    ];
    for (const res of answers) expect(res).toEqual(BAD);
  });

  it('A-30 the unknown-user path runs the dummy hash verifier; a known user does not', async () => {
    await signIn(h(), { username: randomName('nobody'), password: 'Whatever-1', realmId: 'master' });
    expect(passwords.burnPasswordCheck).toHaveBeenCalledTimes(1);
    const a = await createPerson(h());
    vi.mocked(passwords.burnPasswordCheck).mockClear();
    await signIn(h(), { ...a, password: 'Wrong-Password-1' });
    expect(passwords.burnPasswordCheck).not.toHaveBeenCalled();
    // A realm is public (its issuer and sign-in page are), so an unknown one is a plain 1004
    // before any account is looked at; no captcha can even be issued for it.
    const res = await as(h()).post('/api/users/auth/login', {
      username: a.username,
      password: a.password,
      realm_id: 'no-such-realm',
      captcha: 'ABCD',
      serialNo: 'x',
    });
    expect(res).toMatchObject({ status: 404, body: { code: 1004 } });
    expect(passwords.burnPasswordCheck).not.toHaveBeenCalled();
  });

  it('A-30 account state is told only after the password was right (1011, 5007)', async () => {
    const disabled = await createPerson(h(), { disabled: true });
    const unactivated = await createPerson(h(), { activated: false });
    expect(await signIn(h(), disabled)).toMatchObject({ status: 403, body: { code: 1011 } });
    expect(await signIn(h(), unactivated)).toMatchObject({ status: 403, body: { code: 5007 } });
  });

  it('records the last sign-in time and area (SPEC §3 account centre)', async () => {
    const a = await createPerson(h());
    const res = await as(h()).post('/api/users/auth/login', { username: a.username, password: a.password, country: '+86', ...(await captcha(h())) });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      token: expect.any(String),
      expiresAt: h().clock.now() + 604_800_000,
      userId: a.id,
      realmId: 'master',
      forcePassword: false,
    });
    const row = await h().ctx.repos.accounts.findAccountById('master', a.id);
    expect(row).toMatchObject({ last_login_at: h().clock.now(), last_login_area: '86' });
  });

  it('a sign-in whose audit row cannot be written leaves no session and no last sign-in (one commit)', async () => {
    const a = await createPerson(h());
    const restore = failSignInAudit(a.id);
    try {
      const res = await signIn(h(), a);
      expect(res.status).not.toBe(200);
    } finally {
      restore();
    }
    const sessions = await h().ctx.db.selectFrom('sessions').select('id').where('account_id', '=', a.id).execute();
    expect(sessions).toEqual([]);
    expect(await h().ctx.repos.accounts.findAccountById('master', a.id)).toMatchObject({ last_login_at: null });
    // and with the audit store back, the same password signs in
    expect((await signIn(h(), a)).status).toBe(200);
  });

  it("'after_failures': a right password gives the captcha failure counter back in the sign-in's commit — not when that commit fails", async () => {
    const realm = await createRealm(h(), { captchaPolicy: 'after_failures' });
    const a = await createPerson(h(), { realmId: realm });
    const key = { realmId: realm, name: 'login-fail-user', keyHash: h().ctx.secrets.hash('counter', normaliseUsername(a.username)), windowMs: 15 * 60_000 };
    // reading the counter counts one event itself
    const counter = () => h().ctx.stores.codes.hitCounter({ ...key, now: h().clock.now() });
    expect((await signIn(h(), a)).status).toBe(200);
    expect(await counter()).toBe(1);
    const restore = failSignInAudit(a.id);
    try {
      expect((await signIn(h(), a)).status).not.toBe(200);
    } finally {
      restore();
    }
    // the attempt stays counted: no session was made, so nothing is given back
    expect(await counter()).toBe(3);
    expect((await signIn(h(), a)).status).toBe(200);
    expect(await counter()).toBe(4);
  });

  it('a sign-in reads the realm settings once: the audit trail and the Ali Living hook use what the form read', async () => {
    const a = await createPerson(h());
    const policy = h().ctx.services.realmPolicy;
    const reads = () => policy.stats().hits + policy.stats().misses;
    const answer = await captcha(h());
    const before = reads();
    const res = await as(h()).post('/api/users/auth/login', { username: a.username, password: a.password, ...answer });
    expect(res.status).toBe(200);
    // the Ali Living hook runs after the answer: let it
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    expect(reads() - before).toBe(1);
  });

  it('service accounts sign in as owner/subname, case-insensitively (DESIGN.md §4)', async () => {
    const owner = await createPerson(h());
    const svc = await createService(h(), owner, 'robot.arm');
    expect((await signIn(h(), svc)).status).toBe(200);
    expect((await signIn(h(), { ...svc, username: svc.username.toUpperCase() })).status).toBe(200);
    // the subname alone, or another owner's prefix, is not an account
    expect(await signIn(h(), { ...svc, username: 'robot.arm' })).toEqual(BAD);
    expect(await signIn(h(), { ...svc, username: `admin/robot.arm` })).toEqual(BAD);
  });

  it('a forced first password change blocks every call but password change, logout and user info (1008)', async () => {
    const owner = await createPerson(h());
    const svc = await createService(h(), owner, 'sensor_1', { forcePassword: true });
    const first = await signIn(h(), svc);
    expect(first.status).toBe(200);
    expect(first.body.data.forcePassword).toBe(true);
    const token = first.body.data.token as string;
    const blocked = await as(h(), token).get('/api/users/account/sessions');
    expect(blocked).toMatchObject({ status: 403, body: { result: 'fail', code: 1008, error: 'password_change_required' } });
    expect((await as(h(), token).get('/api/users/account/otp')).body.code).toBe(1008);
    expect((await as(h(), token).get('/api/users/account')).status).toBe(200);
    expect((await as(h(), token).get('/api/perm/user/info')).status).toBe(200);
    const changed = await as(h(), token).post('/api/users/account/password', { oldPassword: svc.password, newPassword: 'Fresh-Service-Pass-28' });
    expect(changed).toMatchObject({ status: 200, body: { result: 'ok', code: 0, data: {} } });
    expect((await as(h(), token).get('/api/users/account/sessions')).status).toBe(200);
    const again = await signIn(h(), { ...svc, password: 'Fresh-Service-Pass-28' });
    expect(again.body.data.forcePassword).toBe(false);
  });

  it('A-36 logout ends the session on the server', async () => {
    const a = await createPerson(h());
    const token = await tokenFor(h(), a);
    expect((await as(h(), token).post('/api/users/auth/logout')).status).toBe(200);
    expect(await as(h(), token).get('/api/users/account')).toMatchObject({ status: 401, body: { code: 1001 } });
    expect((await as(h(), token).post('/api/users/auth/logout')).status).toBe(401);
  });
});
