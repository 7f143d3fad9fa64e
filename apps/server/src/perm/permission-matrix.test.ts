/**
 * A-38 permission matrix, generated from the route registry at run time (`app.accessRegistry`),
 * so every route another area adds is in it the day it is registered. For every protected
 * route: an anonymous caller gets 401/1001; for every `permissionId.action` route, an
 * administrator of another realm, a realm-viewer trying a write and a service account without
 * the grant each get 1003 with SPEC §6's errData — and afterwards every table holds exactly
 * the rows it held before. A route with a realm in its path but no realm source fails the
 * suite (the guard would check the caller's own realm instead: A-39). Extends the groundwork's
 * sweep (access.test.ts), which walks the same registry with made-up ids.
 */
import { PERMISSION_CATALOGUE, pkiPaths, type PermissionId } from '@umbo/contracts';
import { beforeAll, expect, it } from 'vitest';
import type { RouteAccess } from '../auth/guard.js';
import { describeBothDbs } from '../test/harness.js';
import { bindRole, createPerson, createService, tokenFor } from '../test/kit.js';
import { aimedAt, isRead, permissionOf, realmFixture, type AimedRequest, type RealmFixture } from './matrix.testkit.js';
import { holder, snapshot } from './roles.testkit.js';

describeBothDbs('A-38 permission matrix', (h) => {
  let a: RealmFixture;
  let b: RealmFixture;
  /** realm-admin of B, realm-viewer of A, a service account of A (its owner realm-admin there) with no grant */
  const tokens = { outsider: '', viewer: '', service: '' };

  beforeAll(async () => {
    a = await realmFixture(h());
    b = await realmFixture(h());
    tokens.outsider = (await holder(h(), b.realmId, 'realm-admin')).token;
    tokens.viewer = (await holder(h(), a.realmId, 'realm-viewer')).token;
    const owner = await createPerson(h(), { realmId: a.realmId });
    await bindRole(h(), owner, 'realm-admin', a.realmId);
    tokens.service = await tokenFor(h(), await createService(h(), owner, 'matrixbot'));
  });

  const routes = () => h().app.accessRegistry.filter((r) => r.access !== 'public');
  const permRoutes = () => routes().filter((r) => r.access.includes('.'));
  const label = (r: RouteAccess) => `${r.method} ${r.url} (${r.access})`;

  async function call(req: AimedRequest, token?: string) {
    const headers: Record<string, string> = { 'accept-language': 'en' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await h().app.inject({ ...req, headers });
    let body: { code?: number; errData?: unknown } = {};
    try {
      body = res.json();
    } catch {
      // not JSON (a CSV download that went through): the status says enough
    }
    return { status: res.statusCode, body };
  }

  function expectRefused(r: RouteAccess, who: string, res: { status: number; body: { code?: number; errData?: unknown } }) {
    const [resource, perm] = permissionOf(r.access);
    expect(res.status, `${who}: ${label(r)}`).toBe(403);
    expect(res.body, `${who}: ${label(r)}`).toMatchObject({ code: 1003, errData: { service: 'users', resource, perm } });
  }

  it('every route with a realm in its path declares that parameter as its realm source', () => {
    const missing = routes()
      .filter((r) => /:realm(Id)?\b/i.test(r.url))
      .filter((r) => !/^params\.realm(Id)?$/i.test(r.realm ?? ''))
      .map(label);
    expect(missing, 'routes that would decide their permission in the caller’s own realm').toEqual([]);
    expect(routes().filter((r) => r.realm).length).toBeGreaterThan(5);
  });

  it('no state-changing route is open to a read permission (query/get)', () => {
    // The certificate tools POST what they read (keys, PKCS#12 passwords, up to 256 KB: not a
    // query string) and store nothing; tools.test.ts checks that every table stays unchanged.
    const readPosts = new Set<string>([pkiPaths.convert, pkiPaths.viewCert, pkiPaths.viewCsr]);
    const writesOnRead = permRoutes()
      .filter((r) => r.method !== 'GET' && isRead(r.access) && !readPosts.has(r.url))
      .map(label);
    expect(writesOnRead).toEqual([]);
  });

  it('refuses anonymous callers, other realms’ administrators, read-only roles writing and service accounts without the grant — and nothing changes', async () => {
    const before = await snapshot(h());
    let checked = 0;
    for (const r of routes()) {
      const req = aimedAt(r, a);
      const anonymous = await call(req);
      expect(anonymous.status, `anonymous: ${label(r)}`).toBe(401);
      expect(anonymous.body.code, `anonymous: ${label(r)}`).toBe(1001);
      if (!r.access.includes('.')) continue;

      const [permissionId] = permissionOf(r.access);
      // Without a realm source the route acts in the caller's own realm: the outsider is refused
      // there only what its realm role lacks (the platform's permissions).
      if (r.realm || PERMISSION_CATALOGUE[permissionId as PermissionId]?.scope === 'platform')
        expectRefused(r, 'admin of another realm', await call(req, tokens.outsider));
      if (!isRead(r.access)) expectRefused(r, 'realm-viewer writing', await call(req, tokens.viewer));
      expectRefused(r, 'service account without the grant', await call(req, tokens.service));
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    expect(await snapshot(h())).toEqual(before);
  });

  it('lets the same callers through where they hold the permission (the refusals above are not the only answer)', async () => {
    for (const r of permRoutes().filter((x) => x.realm && x.method === 'GET' && isRead(x.access))) {
      const [permissionId] = permissionOf(r.access);
      if (PERMISSION_CATALOGUE[permissionId as PermissionId]?.scope !== 'realm') continue;
      const viewer = await call(aimedAt(r, a), tokens.viewer);
      expect([401, 403, 500], `realm-viewer reading its realm: ${label(r)} → ${viewer.status}`).not.toContain(viewer.status);
      const outsider = await call(aimedAt(r, b), tokens.outsider);
      expect([401, 403, 500], `realm-admin reading its realm: ${label(r)} → ${outsider.status}`).not.toContain(outsider.status);
    }
  });

  it('the admin of master passes the guard on every permission route with plausible ids: never 1001, 1003 or a 500', async () => {
    const c = await realmFixture(h());
    const admin = await h().login();
    // deletions last, so the realm and its objects are still there for the others
    const ordered = [...permRoutes()].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
    for (const r of ordered) {
      const res = await call(aimedAt(r, c), admin);
      expect(res.status, `${label(r)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      expect([1001, 1003], `${label(r)}: ${JSON.stringify(res.body)}`).not.toContain(res.body.code);
    }
  });
});
