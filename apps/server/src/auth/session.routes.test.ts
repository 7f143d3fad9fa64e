/** Console sign-in, the current user, legacy *.do calls and logout (issue 2) on both databases. */
import { LIMITS } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { ADMIN_PASSWORD, describeBothDbs } from '../test/harness.js';

describeBothDbs('console session', (h) => {
  it('signs in the first admin and returns a 7-day token and the userid cookie', async () => {
    const res = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', payload: { ...(await h().solveCaptcha()), username: 'admin', password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.result).toBe('ok');
    expect(body.code).toBe(0);
    expect(body.data.token).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(body.data.expiresAt).toBe(h().clock.now() + LIMITS.tokenLifetimeMs);
    const cookie = res.cookies.find((c) => c.name === 'userid');
    expect(cookie?.value).toBe(body.data.userId);
  });

  it('stores the token only as a keyed hash', async () => {
    const token = await h().login();
    const rows = await h().dbh.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash.includes(token))).toBe(false);
    expect(rows.some((r) => r.token_hash === h().ctx.secrets.hash('session', token))).toBe(true);
  });

  it('answers 1010 in the caller language for a wrong password and for an unknown user alike', async () => {
    const wrong = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', headers: { 'accept-language': 'en-US' }, payload: { ...(await h().solveCaptcha()), username: 'admin', password: 'nope-nope' } });
    const unknown = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', headers: { 'accept-language': 'en-US' }, payload: { ...(await h().solveCaptcha()), username: 'nobody', password: 'nope-nope' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ result: 'fail', code: 1010, errno: 1010, error: 'bad_credentials', msg: 'Incorrect account or password' });
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
    const zh = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', payload: { ...(await h().solveCaptcha()), username: 'admin', password: 'nope-nope' } });
    expect(zh.json().msg).toBe('账号或密码错误');
  });

  it('names the field when validation fails', async () => {
    const res = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', headers: { 'accept-language': 'en' }, payload: { ...(await h().solveCaptcha()), username: 'admin' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ result: 'fail', code: 1009, error: 'invalid_parameter', errData: { field: 'password' } });
    expect(res.json().msg).toContain('password');
  });

  it('returns the current user with roles, permissions and show flags in SPEC §3 shape', async () => {
    const token = await h().login();
    const res = await h().app.inject({ method: 'GET', url: '/api/perm/user/info', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const user = res.json().data;
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
    const none = await h().app.inject({ method: 'GET', url: '/api/perm/user/info' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ result: 'fail', code: 1001, error: 'unauthorized' });
    const bad = await h().app.inject({ method: 'GET', url: '/api/perm/user/info', headers: { authorization: 'Bearer forged' } });
    expect(bad.statusCode).toBe(401);
    const token = await h().login();
    const info = () => h().app.inject({ method: 'GET', url: '/api/perm/user/info', headers: { authorization: `Bearer ${token}` } });
    // used every 20 hours (within the idle limit), it lives exactly 7 days
    const step = 20 * 3_600_000;
    let used = 0;
    for (; used + step < LIMITS.tokenLifetimeMs; used += step) {
      h().clock.advance(step);
      expect((await info()).statusCode).toBe(200);
    }
    h().clock.advance(LIMITS.tokenLifetimeMs - 1 - used);
    expect((await info()).statusCode).toBe(200);
    h().clock.advance(1);
    expect((await info()).statusCode).toBe(401);
  });

  it('A-36 a session unused for 24 hours (SESSION_IDLE_HOURS) ends before its 7 days', async () => {
    const token = await h().login();
    const info = () => h().app.inject({ method: 'GET', url: '/api/perm/user/info', headers: { authorization: `Bearer ${token}` } });
    h().clock.advance(24 * 3_600_000);
    expect((await info()).statusCode).toBe(200);
    h().clock.advance(24 * 3_600_000 + 1);
    expect((await info()).json()).toMatchObject({ code: 1001 });
  });

  it('GetIOTUserName and GetUserInfoByToken answer for the token owner only', async () => {
    const login = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', payload: { ...(await h().solveCaptcha()), username: 'admin', password: ADMIN_PASSWORD } });
    const { token, userId } = login.json().data;
    const res = await h().app.inject({ method: 'POST', url: '/api/users/user.do', payload: { todo: 'GetIOTUserName', userid: userId, auth: token } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: 'ok', code: 0, data: { userName: 'admin' }, userName: 'admin' });
    const other = await h().app.inject({ method: 'POST', url: '/api/users/user.do', payload: { todo: 'GetIOTUserName', userid: 'someone-else', auth: token } });
    expect(other.statusCode).toBe(403);
    const noAuth = await h().app.inject({ method: 'POST', url: '/api/users/user.do', payload: { todo: 'GetIOTUserName', userid: userId, auth: 'forged' } });
    expect(noAuth.statusCode).toBe(401);
    const badTodo = await h().app.inject({ method: 'POST', url: '/api/users/user.do', payload: { todo: 'DropTables', auth: token } });
    expect(badTodo.json()).toMatchObject({ code: 1009, errData: { field: 'todo' } });
    const nd = await h().app.inject({ method: 'POST', url: '/api/users/newauth.do', payload: { todo: 'GetUserInfoByToken', token } });
    expect(nd.json()).toEqual({ result: 'ok', code: 0, data: { userID: userId }, userID: userId });
  });

  it('logout revokes the token server-side', async () => {
    const token = await h().login();
    const auth = { authorization: `Bearer ${token}` };
    const out = await h().app.inject({ method: 'POST', url: '/api/users/auth/logout', headers: auth });
    expect(out.statusCode).toBe(200);
    const after = await h().app.inject({ method: 'GET', url: '/api/perm/user/info', headers: auth });
    expect(after.statusCode).toBe(401);
    const again = await h().app.inject({ method: 'POST', url: '/api/users/auth/logout', headers: auth });
    expect(again.statusCode).toBe(401);
  });
});
