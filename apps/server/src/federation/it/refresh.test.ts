/**
 * "Refresh from backend" over HTTP on both databases (issue 14), against the reference backend
 * (examples/it-backend): a user changed at the backend is refreshed (name, e-mail, phone), an
 * unchanged one says so, one the backend no longer knows is not_found, a local or unknown id
 * not_linked; a failing backend is 1303 with nothing written, also when only some answers
 * fail; a realm without an IT backend is 1009; a viewer, another realm's administrator and a
 * selection holding a wider account are refused with nothing changed.
 */
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

import Database from 'better-sqlite3';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { personRefreshPaths } from '@umbo/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_KEY, APP_SECRET, PREFIX, itGroup, itRealm, type ItType } from './it.testkit.js';
import type { Harness } from '../../test/harness.js';
import { describeBothDbs } from '../../test/harness.js';
import { as, bindRole, createPerson, createRealm, issueSession, randomName } from '../../test/kit.js';
import { accountEvents, uniqueMobile } from '../../directory/person.testkit.js';

// The reference backend as in it.testkit.ts, with its user store at a known place: the tests
// change and delete users "at the backend", which its contract (rightly) offers no call for.
const REF_URL = new URL('../../../../../examples/it-backend/server.mjs', import.meta.url).href;
let refServer: http.Server & { addUser(u: { username: string; password: string; email?: string; phone?: string }): Promise<{ userId: string }> };
let refPort: number;
let refDir: string;
let backendDb: Database.Database;
/** Answers user ids starting with `bad` with a 500, any other with a renamed user (no signature check). */
let mixed: http.Server;
let mixedPort: number;
let downPort: number;

const listen = async (s: http.Server) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as AddressInfo).port;
};

beforeAll(async () => {
  refDir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-refresh-'));
  const mod = (await import(REF_URL)) as { createServer(o: object): typeof refServer };
  refServer = mod.createServer({ db: path.join(refDir, 'users.sqlite'), appKey: APP_KEY, appSecret: APP_SECRET, prefix: PREFIX });
  refPort = await listen(refServer);
  backendDb = new Database(path.join(refDir, 'users.sqlite'));
  mixed = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const userId = String((JSON.parse(body || '{}') as { userId?: unknown }).userId);
      if (userId.startsWith('bad')) return void res.writeHead(500).end('{}');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ code: 0, data: { user: { userId, username: `renamed${userId}` } } }));
    });
  });
  mixedPort = await listen(mixed);
  const probe = http.createServer();
  downPort = await listen(probe);
  await new Promise<void>((r) => probe.close(() => r()));
});

afterAll(async () => {
  backendDb.close();
  for (const s of [refServer, mixed]) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
  fs.rmSync(refDir, { recursive: true, force: true });
});

const backendRequests = async () => {
  const res = await fetch(`http://127.0.0.1:${refPort}/admin/requests`);
  return ((await res.json()) as { data: { requests: { path: string; fields: Record<string, unknown> }[] } }).data.requests;
};

/** A shadow account of `realmId` linked to backend user `backendUserId` (as a first sign-in leaves it). */
async function seedShadow(h: Harness, realmId: string, backendUserId: string) {
  const now = h.clock.now();
  const account = await h.ctx.repos.accounts.insertPerson({ id: backendUserId, realmId, username: randomName('sh'), passwordHash: null, now });
  await h.ctx.repos.itShadowLinks.insertLink({
    realm_id: realmId,
    backend_user_id: backendUserId,
    account_id: account.id,
    region: '86',
    created_at: now,
    updated_at: now,
  });
  return account;
}

/**
 * A person of `realmId` holding `role` there, and a console session: issued directly, since in a
 * realm behind a backend a password sign-in goes to the backend, which does not know this person.
 */
async function roleHolder(h: Harness, realmId: string, role: 'realm-admin' | 'realm-viewer') {
  const person = await createPerson(h, { realmId, password: null });
  await bindRole(h, person, role);
  return { person, token: await issueSession(h, person) };
}

const rowsOf = (h: Harness, realmId: string) =>
  h.dbh.db.selectFrom('accounts').select(['id', 'username', 'email', 'phone', 'updated_at']).where('realm_id', '=', realmId).orderBy('id').execute();
const refreshEvents = async (h: Harness, realmId: string) => (await accountEvents(h, realmId)).filter((e) => e.action === 'account.refresh');

describeBothDbs('person accounts: refresh from the IT backend', (h) => {
  const fed = () => h().ctx.services.itFederation;
  const refresh = (token: string, realmId: string, ids: string[]) => as(h(), token).post(personRefreshPaths.refresh(realmId), { ids });

  for (const type of ['ecogloble', 'default'] as const satisfies readonly ItType[]) {
    it(`${type}: a user changed at the backend is refreshed, an unchanged one is not, a deleted one is not_found, a local or unknown id not_linked`, async () => {
      const realmId = await itRealm(h(), itGroup(type, refPort));
      const settings = await h().ctx.services.realmPolicy.settingsOf(realmId);
      const { token } = await roleHolder(h(), realmId, 'realm-admin');
      const register = () =>
        fed().register(realmId, settings, { username: randomName('it'), password: 'Backend-Pass-1', email: `${randomName('m')}@example.test` });
      const [changed, same, gone] = [await register(), await register(), await register()];
      const local = await createPerson(h(), { realmId });

      const mobile = `+86${uniqueMobile()}`;
      const renamed = randomName('new');
      backendDb.prepare('update users set username = ?, email = ?, phone = ? where id = ?').run(renamed, `${renamed}@example.test`, mobile, changed.id);
      backendDb.prepare('delete from users where id = ?').run(gone.id);

      const res = await refresh(token, realmId, [changed.id, same.id, gone.id, local.id, 'nosuchaccount', changed.id]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({
        backend: type,
        items: [
          { id: changed.id, result: 'updated', changes: ['username', 'email', 'phone'] },
          { id: same.id, result: 'unchanged' },
          { id: gone.id, result: 'not_found' },
          { id: local.id, result: 'not_linked' },
          { id: 'nosuchaccount', result: 'not_linked' },
        ],
      });
      // the console's list shows the backend's values now
      const list = await as(h(), token).get(`/api/users/realms/${realmId}/accounts?q=${renamed}`);
      expect(list.body.data.items).toEqual([expect.objectContaining({ id: changed.id, username: renamed, email: `${renamed}@example.test`, phone: mobile })]);
      expect(await h().ctx.repos.accounts.findAccountById(realmId, same.id)).toMatchObject({ username: same.username, email: same.email });

      // default: one getUserInfoListByUcUids for the three linked ids; ecogloble: one getUsersInfo each
      const calls = (await backendRequests()).slice(type === 'default' ? -1 : -3);
      if (type === 'default')
        expect(calls).toEqual([
          expect.objectContaining({ path: '/it/users', fields: expect.objectContaining({ userIds: expect.arrayContaining([changed.id, same.id, gone.id]) }) }),
        ]);
      else expect(calls.map((c) => [c.path, c.fields.userId]).sort()).toEqual([changed.id, same.id, gone.id].map((id) => ['/it/user', id]).sort());

      // one event, for the account that changed: field names, never the values
      const events = await refreshEvents(h(), realmId);
      expect(events).toEqual([
        expect.objectContaining({
          target: { type: 'account', id: changed.id, name: renamed },
          changes: ['username', 'email', 'phone'],
          detail: { backend: type, bulk: true },
        }),
      ]);
      expect(JSON.stringify(events)).not.toContain(mobile);
      expect(JSON.stringify(events)).not.toContain('@example.test');

      // asked again: nothing left to change
      const again = await refresh(token, realmId, [changed.id]);
      expect(again.body.data.items).toEqual([{ id: changed.id, result: 'unchanged' }]);
      expect(await as(h(), token).get(personRefreshPaths.refresh(realmId))).toMatchObject({ status: 200, body: { data: { backend: type } } });
    });
  }

  it('a backend value another account of the realm holds is a conflict for that account only', async () => {
    const realmId = await itRealm(h(), itGroup('default', refPort));
    const settings = await h().ctx.services.realmPolicy.settingsOf(realmId);
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const a = await fed().register(realmId, settings, { username: randomName('it'), password: 'Backend-Pass-1' });
    const b = await fed().register(realmId, settings, { username: randomName('it'), password: 'Backend-Pass-1' });
    const holder = await createPerson(h(), { realmId, email: `${randomName('x')}@example.test` });
    const bName = randomName('nb');
    backendDb.prepare('update users set email = ? where id = ?').run(holder.row.email, a.id);
    backendDb.prepare('update users set username = ? where id = ?').run(bName, b.id);
    const res = await refresh(token, realmId, [a.id, b.id]);
    expect(res.body.data.items).toEqual([
      { id: a.id, result: 'conflict', field: 'email' },
      { id: b.id, result: 'updated', changes: ['username'] },
    ]);
    expect((await h().ctx.repos.accounts.findAccountById(realmId, a.id))?.email).toBeNull();
    expect((await h().ctx.repos.accounts.findAccountById(realmId, b.id))?.username).toBe(bName);
  });

  it('backend down → 1303 (502), nothing written, no event', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', downPort));
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const ids = [(await seedShadow(h(), realmId, randomName('b'))).id, (await seedShadow(h(), realmId, randomName('b'))).id];
    const before = await rowsOf(h(), realmId);
    const res = await refresh(token, realmId, ids);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ result: 'fail', code: 1303, error: 'connect_it_error', errData: { reason: 'unreachable' } });
    expect(await rowsOf(h(), realmId)).toEqual(before);
    expect(await refreshEvents(h(), realmId)).toEqual([]);
  });

  it('one failing answer among good ones → 1303, and the good ones are not written either', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', mixedPort));
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const good = [];
    for (let i = 0; i < 10; i++) good.push((await seedShadow(h(), realmId, randomName('ok'))).id);
    const bad = (await seedShadow(h(), realmId, randomName('bad'))).id;
    const before = await rowsOf(h(), realmId);
    const res = await refresh(token, realmId, [...good, bad]);
    expect(res.body).toMatchObject({ code: 1303, errData: { reason: 'server_error' } });
    expect(await rowsOf(h(), realmId)).toEqual(before);
    expect(await refreshEvents(h(), realmId)).toEqual([]);
    // without the failing one the same backend answers: all renamed in one go
    const ok = await refresh(token, realmId, good);
    expect(ok.body.data.items.map((x: { result: string }) => x.result)).toEqual(good.map(() => 'updated'));
    expect((await rowsOf(h(), realmId)).filter((r) => r.username.startsWith('renamed'))).toHaveLength(good.length);
  });

  it('a realm without an IT backend: 1009 naming realmId, and the console is told there is none', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const p = await createPerson(h(), { realmId });
    const res = await refresh(token, realmId, [p.id]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1009, errData: { field: 'realmId', reason: 'validation.no_it_backend' } });
    expect(res.body.msg).toContain('keeps its accounts itself');
    expect(await as(h(), token).get(personRefreshPaths.refresh(realmId))).toMatchObject({ status: 200, body: { data: { backend: null } } });
  });

  it('refused: a realm-viewer (1003 person.edit), another realm’s administrator, a wider account in the selection (A-40), an unknown field; another realm’s ids are not_linked', async () => {
    const realmId = await itRealm(h(), itGroup('default', refPort));
    const otherRealm = await itRealm(h(), itGroup('default', refPort));
    const settings = await h().ctx.services.realmPolicy.settingsOf(realmId);
    const otherSettings = await h().ctx.services.realmPolicy.settingsOf(otherRealm);
    const target = await fed().register(realmId, settings, { username: randomName('it'), password: 'Backend-Pass-1' });
    const foreign = await fed().register(otherRealm, otherSettings, { username: randomName('it'), password: 'Backend-Pass-1' });
    const wider = await fed().register(realmId, settings, { username: randomName('it'), password: 'Backend-Pass-1' });
    await bindRole(h(), { id: wider.id, realmId }, 'admin');
    for (const u of [target, foreign, wider]) backendDb.prepare('update users set username = ? where id = ?').run(randomName('chg'), u.id);
    const watched = [target.id, foreign.id, wider.id];
    const snapshot = async () => [...(await rowsOf(h(), realmId)), ...(await rowsOf(h(), otherRealm))].filter((r) => watched.includes(r.id));
    const before = await snapshot();
    expect(before).toHaveLength(3);

    const viewer = (await roleHolder(h(), realmId, 'realm-viewer')).token;
    expect((await refresh(viewer, realmId, [target.id])).body).toMatchObject({ code: 1003, errData: { resource: 'person', perm: 'edit' } });
    const outsider = (await roleHolder(h(), otherRealm, 'realm-admin')).token;
    expect((await refresh(outsider, realmId, [target.id])).body).toMatchObject({ code: 1003 });
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    expect((await refresh(token, realmId, [target.id, wider.id])).body).toMatchObject({ code: 1003, errData: { resource: 'person', perm: 'edit' } });
    const extra = await as(h(), token).post(personRefreshPaths.refresh(realmId), { ids: [target.id], realmId: otherRealm });
    expect(extra.body).toMatchObject({ code: 1009 });
    const cross = await refresh(token, realmId, [foreign.id]);
    expect(cross.body.data.items).toEqual([{ id: foreign.id, result: 'not_linked' }]);
    expect(await snapshot()).toEqual(before);
    expect(await refreshEvents(h(), realmId)).toEqual([]);
    // the viewer still reads whether the realm has a backend (person.query): the console hides the action by permission
    expect((await as(h(), viewer).get(personRefreshPaths.refresh(realmId))).status).toBe(200);
  });
});
