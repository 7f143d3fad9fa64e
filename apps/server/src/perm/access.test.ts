/**
 * every /api route declares an access rule, and the server enforces it: no
 * token → 401; a signed-in account without the permission → 403 with the missing-permission
 * errData; the platform admin passes the guard. Realm-scoped routes (config.realm) decide the
 * permission in the realm the request names: a realm-admin of realm A gets 1003 on every one
 * of them for realm B — existing or not — and nothing changes in B.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { bindRole, createPerson, createRealm, tokenFor } from '../test/kit.js';
import type { RouteAccess } from '../auth/guard.js';
import { BUILTIN_ROLES } from './builtin-roles.js';

/** Whether the built-in realm-admin role grants a route's `permissionId.action` (realm deletion is master's). */
function realmAdminGrants(access: string): boolean {
  const [permissionId, action] = access.split('.');
  const role = BUILTIN_ROLES.find((r) => r.id === 'realm-admin')!;
  return role.permissions.some((g) => g.permissionId === permissionId && (g.actions as readonly string[]).includes(action!));
}

/** The request that names `realmId` through the route's realm source; other path parameters are 'x'. */
function aimedAt(r: RouteAccess, realmId: string) {
  const [where, name] = (r.realm ?? 'params.realmId').split('.') as ['params' | 'query' | 'body', string];
  let url = r.url.replace(/:(\w+)/g, (_, p: string) => (where === 'params' && p === name ? realmId : 'x'));
  if (where === 'query') url += `${url.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(realmId)}`;
  return { method: r.method as 'GET', url, ...(where === 'body' ? { payload: { [name]: realmId } } : {}) };
}

describeBothDbs('A-38 access registry', (h) => {
  /** A person of `realmId` holding `role` there (none: only its own pages), and its token. */
  async function plainUserToken(realmId = 'master', role?: string): Promise<string> {
    const person = await createPerson(h(), { realmId });
    if (role) await bindRole(h(), person, role);
    return tokenFor(h(), person);
  }

  const newRealm = () => createRealm(h());

  it('lists every /api route with a rule', () => {
    const reg = h().app.accessRegistry;
    expect(reg.length).toBeGreaterThan(3);
    for (const r of reg) expect(r.access).toMatch(/^(public|session|[a-zA-Z]+\.[a-z]+)$/);
    expect(reg).toContainEqual({ method: 'GET', url: '/api/perm/user/info', access: 'session' });
  });

  it('every /api route is in the OpenAPI document, with the bearer requirement its access implies', async () => {
    const doc = (await h().app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, { security?: unknown }>> };
    const routes = h().app.accessRegistry.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) {
      const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url} in the document`).toBeDefined();
      if (r.access === 'public') expect(op!.security, `${r.method} ${r.url}`).toBeUndefined();
      else expect(op!.security, `${r.method} ${r.url}`).toEqual([{ bearer: [] }]);
    }
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
      // past the guard: whatever the route answers next, never a refusal and never a 500
      const ok = await h().app.inject({ method: r.method as 'GET', url, headers: { authorization: `Bearer ${admin}` } });
      expect([200, 400, 404], `${r.method} ${r.url}: ${ok.body}`).toContain(ok.statusCode);
      // a download (CSV) that went through has no envelope: its 200 says enough
      if (String(ok.headers['content-type']).includes('json')) expect([1001, 1003, 1500], `${r.method} ${r.url}`).not.toContain(ok.json().code);
    }
  });

  it('A-39 a realm-admin of realm A gets 1003 on every realm-scoped route of realm B, and nothing changes in B', async () => {
    const scoped = h().app.accessRegistry.filter((r) => r.realm);
    expect(scoped.length).toBeGreaterThanOrEqual(2);
    const [a, b] = [await newRealm(), await newRealm()];
    const token = await plainUserToken(a, 'realm-admin');
    const snapshot = async () => JSON.stringify(await h().dbh.db.selectFrom('realms').selectAll().where('id', '=', b).execute());
    const before = await snapshot();
    for (const r of scoped) {
      for (const target of [b, 'master', 'no-such-realm']) {
        const res = await h().app.inject({ ...aimedAt(r, target), headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' } });
        const [permissionId, action] = r.access.split('.');
        expect(res.statusCode, `${r.method} ${r.url} → ${target}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 1003, errData: { service: 'users', resource: permissionId, perm: action } });
      }
      // …while the same account passes the guard in its own realm, where its role grants the permission
      if (!realmAdminGrants(r.access)) continue;
      const own = await h().app.inject({ ...aimedAt(r, a), headers: { authorization: `Bearer ${token}` } });
      expect([401, 403, 500], `${r.method} ${r.url} → own realm`).not.toContain(own.statusCode);
    }
    expect(await snapshot()).toBe(before);
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
