/**
 * A-38 (first layer): every /api route declares an access rule, and the server enforces it:
 * no token → 401; a signed-in account without the permission → 403 with the
 * missing-permission errData; the platform admin passes the guard.
 */
import { expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.js';
import { newId } from '../platform/crypto.js';
import { describeBothDbs } from '../test/harness.js';

describeBothDbs('A-38 access registry', (h) => {
  async function plainUserToken(): Promise<string> {
    const now = h().clock.now();
    const name = `plain${newId().slice(0, 8)}`;
    await h().ctx.repos.accounts.insertAccount({
      id: newId(), realm_id: 'master', kind: 'person', owner_id: null, username: name, username_norm: name, email: null, email_norm: null,
      phone: null, password_hash: await hashPassword('plain-password'), avatar: '', disabled: 0, activated: 1, force_password: 0,
      regist_area: '', last_login_at: null, last_login_area: '', created_at: now, updated_at: now,
    });
    return h().login(name, 'plain-password');
  }

  it('lists every /api route with a rule', () => {
    const reg = h().app.accessRegistry;
    expect(reg.length).toBeGreaterThan(3);
    for (const r of reg) expect(r.access).toMatch(/^(public|session|[a-zA-Z]+\.[a-z]+)$/);
    expect(reg).toContainEqual({ method: 'GET', url: '/api/perm/user/info', access: 'session' });
  });

  it('refuses every protected route without a token', async () => {
    for (const r of h().app.accessRegistry.filter((x) => x.access !== 'public')) {
      const url = r.url.replace(/:(\w+)/g, 'x');
      const res = await h().app.inject({ method: r.method as 'GET', url });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      expect(res.json().code, `${r.method} ${r.url}`).toBe(1001);
    }
  });

  it('refuses permission routes to an account without the permission, and lets the admin through', async () => {
    const plain = await plainUserToken();
    const admin = await h().login();
    const permRoutes = h().app.accessRegistry.filter((x) => x.access.includes('.'));
    expect(permRoutes.length).toBeGreaterThan(0);
    for (const r of permRoutes) {
      const url = r.url.replace(/:(\w+)/g, 'x');
      const [permissionId, action] = r.access.split('.');
      const res = await h().app.inject({ method: r.method as 'GET', url, headers: { authorization: `Bearer ${plain}`, 'accept-language': 'en' } });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json().errData).toEqual({ service: 'users', resource: permissionId, perm: action });
      expect(res.json().msg).toContain('Please contact the administrator');
      const ok = await h().app.inject({ method: r.method as 'GET', url, headers: { authorization: `Bearer ${admin}` } });
      expect([401, 403], `${r.method} ${r.url}`).not.toContain(ok.statusCode);
    }
  });

  it('gives an ordinary account its own pages only', async () => {
    const plain = await plainUserToken();
    const res = await h().app.inject({ method: 'GET', url: '/api/perm/user/info', headers: { authorization: `Bearer ${plain}` } });
    const user = res.json().data;
    expect(user.roles.map((r: { id: string }) => r.id)).toEqual(['user']);
    expect(user.roles[0].permissions.map((p: { permissionId: string }) => p.permissionId)).toEqual(['center', 'security']);
    expect(user).toMatchObject({ showDomain: false, showDeveloper: false, showServiceAccount: false, showOAuth: false });
  });
});
