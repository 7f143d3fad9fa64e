/** Console sign-in, the current user, legacy *.do calls and logout (issue 2) on both databases. */
import { LIMITS } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { ADMIN, as, captcha, signIn, tokenFor } from '../test/kit.js';

describeBothDbs('console session', (h) => {
  it('signs in the first admin and returns a 7-day token and the userid cookie', async () => {
    const res = await signIn(h(), ADMIN);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.result).toBe('ok');
    expect(body.code).toBe(0);
    expect(body.data.token).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(body.data.expiresAt).toBe(h().clock.now() + LIMITS.tokenLifetimeMs);
    const cookie = res.cookies.find((c) => c.name === 'userid');
    expect(cookie?.value).toBe(body.data.userId);
  });

  it('stores the token only as a keyed hash', async () => {
    const token = await tokenFor(h(), ADMIN);
    const rows = await h().dbh.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash.includes(token))).toBe(false);
    expect(rows.some((r) => r.token_hash === h().ctx.secrets.hash('session', token))).toBe(true);
  });

  it('answers 1010 in the caller language for a wrong password and for an unknown user alike', async () => {
    const wrong = await as(h()).post('/api/users/auth/login', { ...(await captcha(h())), username: 'admin', password: 'nope-nope' }, { lang: 'en-US' });
    const unknown = await as(h()).post('/api/users/auth/login', { ...(await captcha(h())), username: 'nobody', password: 'nope-nope' }, { lang: 'en-US' });
    expect(wrong).toEqual({ status: 400, body: { result: 'fail', code: 1010, errno: 1010, error: 'bad_credentials', msg: 'Incorrect account or password' } });
    expect(unknown).toEqual(wrong);
    // no Accept-Language: the server's default language
    const zh = await as(h()).post('/api/users/auth/login', { ...(await captcha(h())), username: 'admin', password: 'nope-nope' }, { lang: null });
    expect(zh.body.msg).toBe('账号或密码错误');
  });

  it('names the field when validation fails', async () => {
    const res = await as(h()).post('/api/users/auth/login', { ...(await captcha(h())), username: 'admin' });
    expect(res).toMatchObject({ status: 400, body: { result: 'fail', code: 1009, error: 'invalid_parameter', errData: { field: 'password' } } });
    expect(res.body.msg).toContain('password');
  });

  it('returns the current user with roles, permissions and show flags in SPEC §3 shape', async () => {
    const res = await as(h(), await tokenFor(h(), ADMIN)).get('/api/perm/user/info');
    expect(res.status).toBe(200);
    const user = res.body.data;
    expect(user.name).toBe('admin');
    expect(user.realmId).toBe('master');
    expect(user).toMatchObject({ showDomain: true, showDeveloper: true, showServiceAccount: true, showOAuth: true });
    const admin = user.roles.find((r: { id: string }) => r.id === 'admin');
    const domain = admin.permissions.find((p: { permissionId: string }) => p.permissionId === 'domain');
    expect(domain.actionList).toEqual(['add', 'delete', 'edit', 'update', 'query', 'get', 'enable', 'disable', 'import', 'export']);
    expect(domain.actions[0]).toEqual({ action: 'add', describe: 'add', defaultCheck: false });
    expect(domain.actionEntitySet).toEqual(domain.actions);
  });

  it('answers 401 in the envelope without a token, with a bad token, and after expiry (A-47)', async () => {
    const none = await as(h()).get('/api/perm/user/info');
    expect(none).toMatchObject({ status: 401, body: { result: 'fail', code: 1001, error: 'unauthorized' } });
    expect((await as(h(), 'forged').get('/api/perm/user/info')).status).toBe(401);
    const token = await tokenFor(h(), ADMIN);
    const info = async () => (await as(h(), token).get('/api/perm/user/info')).status;
    // used every 20 hours (within the idle limit), it lives exactly 7 days
    const step = 20 * 3_600_000;
    let used = 0;
    for (; used + step < LIMITS.tokenLifetimeMs; used += step) {
      h().clock.advance(step);
      expect(await info()).toBe(200);
    }
    h().clock.advance(LIMITS.tokenLifetimeMs - 1 - used);
    expect(await info()).toBe(200);
    h().clock.advance(1);
    expect(await info()).toBe(401);
  });

  it('A-36 a session unused for 24 hours (SESSION_IDLE_HOURS) ends before its 7 days', async () => {
    const token = await tokenFor(h(), ADMIN);
    const info = () => as(h(), token).get('/api/perm/user/info');
    h().clock.advance(24 * 3_600_000);
    expect((await info()).status).toBe(200);
    h().clock.advance(24 * 3_600_000 + 1);
    expect((await info()).body).toMatchObject({ code: 1001 });
  });

  it('GetIOTUserName and GetUserInfoByToken answer for the token owner only', async () => {
    const { token, userId } = (await signIn(h(), ADMIN)).body.data;
    // the token travels in the body (SPEC §7), not in an Authorization header
    const legacy = as(h());
    const res = await legacy.post('/api/users/user.do', { todo: 'GetIOTUserName', userid: userId, auth: token });
    expect(res).toEqual({ status: 200, body: { result: 'ok', code: 0, data: { userName: 'admin' }, userName: 'admin' } });
    expect((await legacy.post('/api/users/user.do', { todo: 'GetIOTUserName', userid: 'someone-else', auth: token })).status).toBe(403);
    expect((await legacy.post('/api/users/user.do', { todo: 'GetIOTUserName', userid: userId, auth: 'forged' })).status).toBe(401);
    expect((await legacy.post('/api/users/user.do', { todo: 'DropTables', auth: token })).body).toMatchObject({ code: 1009, errData: { field: 'todo' } });
    const nd = await legacy.post('/api/users/newauth.do', { todo: 'GetUserInfoByToken', token });
    expect(nd.body).toEqual({ result: 'ok', code: 0, data: { userID: userId }, userID: userId });
  });

  it('logout revokes the token server-side', async () => {
    const me = as(h(), await tokenFor(h(), ADMIN));
    expect((await me.post('/api/users/auth/logout')).status).toBe(200);
    expect((await me.get('/api/perm/user/info')).status).toBe(401);
    expect((await me.post('/api/users/auth/logout')).status).toBe(401);
  });
});
