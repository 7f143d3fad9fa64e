/**
 * The guard's cache (auth-cache.ts, issue 11): reads are served from memory, and yet a
 * logout, a password change, a disable, a forced password change or a role change is
 * refused or granted at the very next request — on the instance that made the change and, on
 * PostgreSQL, on another instance sharing the database. Every test first makes sure the
 * token's entry is in the cache (a second read is a hit), so a refusal afterwards shows the
 * cache was invalidated, not merely unused.
 */
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createContext, type AppContext } from '../composition/context.js';
import { openDb } from '../platform/db.js';
import { createHarness, DB_TARGETS, describeBothDbs, PG_URL, testConfig, type Harness } from '../test/harness.js';
import { ADMIN, as, bindRole, createPerson, createRealm, createService, issueSession, PASSWORD, tokenFor, type TestAccount } from '../test/kit.js';
import { sharedFreshRead } from '../platform/shared-read.js';

const ACCOUNT = '/api/users/account';
const PEOPLE = '/api/users/realms/master/accounts';

type Node = { app: FastifyInstance; ctx: AppContext };

/** Hits of the node's guard cache so far. */
const cacheHits = (node: Node) => node.ctx.services.sessions.cacheStats().hits;

/**
 * A second server instance on the harness's PostgreSQL schema: its own pool, context and so
 * its own auth cache, the same master key and clock, as two processes behind a load balancer.
 */
async function secondInstance(h: Harness): Promise<Node & { dispose(): Promise<void> }> {
  const dbh = openDb(PG_URL, { schema: h.dbh.schema!, poolMax: 5 });
  const config = testConfig();
  const ctx = createContext(config, dbh, h.clock);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return {
    app,
    ctx,
    async dispose() {
      await app.close();
      await dbh.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads twice with `token` and checks that the second read was served from `node`'s cache. */
async function cached(node: Node, token: string, url = ACCOUNT): Promise<void> {
  expect((await as(node, token).get(url)).status).toBe(200);
  const before = cacheHits(node);
  expect((await as(node, token).get(url)).status).toBe(200);
  expect(cacheHits(node)).toBe(before + 1);
}

async function personWithToken(h: Harness, roleId?: string): Promise<{ a: TestAccount; token: string }> {
  const a = await createPerson(h);
  if (roleId) await bindRole(h, a, roleId);
  return { a, token: await tokenFor(h, a) };
}

describeBothDbs('auth cache (issue 11)', (h) => {
  it('serves a repeated read from memory, with the same answer as the first', async () => {
    const { token } = await personWithToken(h());
    const first = await as(h(), token).get('/api/perm/user/info');
    await cached(h(), token, '/api/perm/user/info');
    expect((await as(h(), token).get('/api/perm/user/info')).body).toEqual(first.body);
  });

  it('logouts racing an administrator who ends every session of the same account: no deadlock, no failure, all sessions end', async () => {
    const a = await createPerson(h());
    const tokens = await Promise.all(Array.from({ length: 30 }, () => issueSession(h(), a)));
    const admin = await tokenFor(h(), ADMIN);
    const resets = Array.from({ length: 5 }, (_, i) =>
      as(h(), admin).post(`/api/users/realms/${a.realmId}/accounts/${a.id}/password`, { password: `Temporary-Pa55-${i}x` }),
    );
    const logouts = tokens.map((t) => as(h(), t).post('/api/users/auth/logout'));
    const answers = await Promise.all([...resets, ...logouts]);
    expect(answers.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    expect(answers.slice(0, 5).every((r) => r.status === 200)).toBe(true);
    for (const t of tokens) expect((await as(h(), t).get(ACCOUNT)).status).toBe(401);
  });

  it('A-36 a logout is refused at the next request', async () => {
    const { token } = await personWithToken(h());
    await cached(h(), token);
    expect((await as(h(), token).post('/api/users/auth/logout')).status).toBe(200);
    expect(await as(h(), token).get(ACCOUNT)).toMatchObject({ status: 401, body: { code: 1001 } });
  });

  it('A-36 a logout amid 200 reads in flight: reads sent before it answer 200 or 401, every read sent after its answer is refused', async () => {
    // On SQLite the epoch is read only after a write (platform/db.ts soleWriterCountOf): reads
    // interleaved with the logout's statements must still see it once it answered.
    const { token } = await personWithToken(h());
    await cached(h(), token);
    const before = Array.from({ length: 100 }, () => as(h(), token).get(ACCOUNT));
    const logout = as(h(), token).post('/api/users/auth/logout');
    const during = Array.from({ length: 100 }, () => as(h(), token).get(ACCOUNT));
    expect((await logout).status).toBe(200);
    const after = await Promise.all(Array.from({ length: 200 }, () => as(h(), token).get(ACCOUNT)));
    const early = await Promise.all([...before, ...during]);
    expect(early.filter((r) => r.status !== 200 && r.status !== 401).map((r) => r.body)).toEqual([]);
    expect(after.filter((r) => r.status !== 401).map((r) => r.status)).toEqual([]);
  });

  it('A-16 a password change ends the other sessions at once, and keeps its own', async () => {
    const { a, token } = await personWithToken(h());
    const other = await tokenFor(h(), a);
    await cached(h(), token);
    await cached(h(), other);
    const changed = await as(h(), token).post('/api/users/account/password', { oldPassword: PASSWORD, newPassword: 'Another-Pass-58' });
    expect(changed.status).toBe(200);
    expect((await as(h(), other).get(ACCOUNT)).status).toBe(401);
    expect((await as(h(), token).get(ACCOUNT)).status).toBe(200);
  });

  it('A-16 an account disabled by an administrator is refused at once', async () => {
    const { a, token } = await personWithToken(h());
    const admin = await tokenFor(h(), ADMIN);
    await cached(h(), token);
    expect((await as(h(), admin).post(`${PEOPLE}/${a.id}/disable`)).status).toBe(200);
    expect((await as(h(), token).get(ACCOUNT)).status).toBe(401);
  });

  it('any writer of the accounts table is seen, not only the services that know the cache', async () => {
    // A session issued directly stays live when only the account row changes: the row itself must count.
    const a = await createPerson(h());
    const token = await issueSession(h(), a);
    await cached(h(), token);
    await h().ctx.repos.accounts.updateAccount(a.realmId, a.id, { disabled: 1 });
    expect((await as(h(), token).get(ACCOUNT)).status).toBe(401);
    await h().ctx.repos.accounts.updateAccount(a.realmId, a.id, { disabled: 0 });
    expect((await as(h(), token).get(ACCOUNT)).status).toBe(200);
    await cached(h(), token);
    await h().ctx.repos.accounts.updateAccount(a.realmId, a.id, { force_password: 1 });
    expect(await as(h(), token).get(PEOPLE)).toMatchObject({ status: 403, body: { code: 1008 } });
    expect((await as(h(), token).get(ACCOUNT)).body.data.forcePassword).toBe(true);
  });

  it('a role taken away is refused at the next request, a role given is granted at the next request', async () => {
    const { a, token } = await personWithToken(h(), 'realm-viewer');
    const admin = await tokenFor(h(), ADMIN);
    await cached(h(), token, PEOPLE);
    expect((await as(h(), admin).delete(`/api/perm/realms/master/assignments/${a.id}/realm-viewer`)).status).toBe(200);
    expect(await as(h(), token).get(PEOPLE)).toMatchObject({ status: 403, body: { code: 1003 } });
    await cached(h(), token);
    expect((await as(h(), admin).post('/api/perm/realms/master/assignments', { accountId: a.id, roleId: 'realm-viewer' })).status).toBe(200);
    expect((await as(h(), token).get(PEOPLE)).status).toBe(200);
  });

  it("a service account's grant withdrawn, or its owner disabled, is refused at the next request", async () => {
    const { a: owner } = await personWithToken(h(), 'realm-viewer');
    const svc = await createService(h(), owner, `svc${Date.now().toString(36)}`);
    const key = { realmId: owner.realmId, accountId: svc.id, ownerId: owner.id };
    await h().ctx.repos.serviceAccounts.saveServiceGrants(key, [{ permissionId: 'person', actions: ['query'] }], h().clock.now());
    const token = await tokenFor(h(), svc);
    await cached(h(), token, PEOPLE);
    await h().ctx.repos.serviceAccounts.saveServiceGrants(key, [], h().clock.now());
    expect((await as(h(), token).get(PEOPLE)).status).toBe(403);
    await h().ctx.repos.serviceAccounts.saveServiceGrants(key, [{ permissionId: 'person', actions: ['query'] }], h().clock.now());
    await cached(h(), token, PEOPLE);
    await h().ctx.repos.accounts.updateAccount(owner.realmId, owner.id, { disabled: 1 });
    expect((await as(h(), token).get(PEOPLE)).status).toBe(403);
  });

  it('a new user name shows at once', async () => {
    const { token } = await personWithToken(h());
    await cached(h(), token);
    const name = `renamed${Date.now().toString(36)}`;
    expect((await as(h(), token).patch(ACCOUNT, { username: name })).status).toBe(200);
    expect((await as(h(), token).get(ACCOUNT)).body.data.username).toBe(name);
  });

  it('answers kept with a cache entry (permission set, account centre) follow a role, a realm rename and the OTP state at the next request', async () => {
    const realmId = await createRealm(h());
    const a = await createPerson(h(), { realmId });
    const token = await issueSession(h(), a);
    const roles = async () => ((await as(h(), token).get('/api/perm/user/info')).body.data.roles as { id: string }[]).map((r) => r.id);
    expect(await roles()).not.toContain('realm-viewer');
    await cached(h(), token, '/api/perm/user/info');
    await bindRole(h(), a, 'realm-viewer');
    expect(await roles()).toContain('realm-viewer');

    await cached(h(), token);
    const name = `renamed-${Date.now().toString(36)}`;
    await h().ctx.repos.realms.updateRealm(realmId, { name }, h().clock.now());
    expect((await as(h(), token).get(ACCOUNT)).body.data.domain).toBe(name);

    // OTP turned on or off moves the epoch (migration 0034): the kept answer follows at once
    await cached(h(), token);
    const owner = { realmId, accountId: a.id };
    await h().ctx.repos.otp.savePendingSecret(owner, 'sealed', h().clock.now());
    expect(await h().ctx.repos.otp.activatePendingSecret(owner, 'sealed', 1, h().clock.now())).toBe(true);
    expect((await as(h(), token).get(ACCOUNT)).body.data).toMatchObject({ otpEnabled: true, domain: name });
    // a sign-in's accepted time step changes nothing kept, and bumps nothing
    const epoch = await h().ctx.repos.authEpoch.read();
    expect(await h().ctx.repos.otp.advanceStep(owner, 5, 5, h().clock.now())).toBe(true);
    expect(await h().ctx.repos.authEpoch.read()).toBe(epoch);
    await h().ctx.repos.otp.disableOtp(owner, h().clock.now());
    expect((await as(h(), token).get(ACCOUNT)).body.data.otpEnabled).toBe(false);
    // and so does an operator's plain SQL
    await cached(h(), token);
    await h().ctx.db.updateTable('account_otp').set({ enabled: 1 }).where('account_id', '=', a.id).execute();
    expect((await as(h(), token).get(ACCOUNT)).body.data.otpEnabled).toBe(true);
  });

  it('A-36 the cache neither extends the idle timeout nor the 7 days', async () => {
    const { token } = await personWithToken(h());
    await cached(h(), token);
    // still used within the idle window: the session lives on
    h().clock.advance(h().ctx.config.sessionIdleMs - 1000);
    expect((await as(h(), token).get(ACCOUNT)).status).toBe(200);
    h().clock.advance(h().ctx.config.sessionIdleMs + 1000);
    expect((await as(h(), token).get(ACCOUNT)).status).toBe(401);
  });

  it('bumps the auth epoch on the changes the guard decides on, and not on sign-in bookkeeping', async () => {
    const { repos } = h().ctx;
    const epoch = () => repos.authEpoch.read();
    const a = await createPerson(h());
    const grows = async (what: string, write: () => Promise<unknown>, expected: boolean) => {
      const before = await epoch();
      await write();
      expect({ what, grew: (await epoch()) > before }).toEqual({ what, grew: expected });
    };
    const now = h().clock.now();
    await grows('a new account', () => createPerson(h()), false);
    const token = await issueSession(h(), a);
    const [session] = await repos.sessions.listAccountSessions(a.realmId, a.id, now);
    await grows('a new session', () => issueSession(h(), a), false);
    await grows('last login', () => repos.accounts.updateAccount(a.realmId, a.id, { last_login_at: now, last_login_area: '86' }), false);
    await grows('last seen', () => repos.sessions.touchSession(session!.id, now + 1), false);
    await grows('an account change', () => repos.accounts.updateAccount(a.realmId, a.id, { avatar: 'https://cdn.example.test/a.png', updated_at: now }), true);
    await grows('a role binding', () => repos.roles.bindRole(a.id, 'realm-viewer', a.realmId, now), true);
    await grows('a session revoked', () => repos.sessions.revokeSession(a.realmId, session!.id, now), true);
    // rolled back with the change it belongs to
    const before = await epoch();
    await expect(
      h()
        .ctx.db.transaction()
        .execute(async (trx) => {
          await repos.accounts.updateAccount(a.realmId, a.id, { disabled: 1 }, trx);
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(await epoch()).toBe(before);
    expect(token).toBeTruthy();
    await grows('an account deleted', () => repos.accounts.deletePersons(a.realmId, [a.id]), true);
  });
});

describe('auth cache: two instances on one PostgreSQL (issue 11) [postgres]', () => {
  let a: Harness & { dispose(): Promise<void> };
  let b: Node & { dispose(): Promise<void> };
  beforeAll(async () => {
    a = await createHarness(DB_TARGETS.find((t) => t.dialect === 'postgres')!);
    b = await secondInstance(a);
  });
  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
  });

  it('A-36 a logout on one instance is refused on the other at once', async () => {
    const { token } = await personWithToken(a);
    await cached(a, token);
    await cached(b, token);
    expect((await as(a, token).post('/api/users/auth/logout')).status).toBe(200);
    expect((await as(b, token).get(ACCOUNT)).status).toBe(401);
  });

  it('A-16 a disable on one instance is refused on the other at once, even by many requests in flight', async () => {
    const { a: person, token } = await personWithToken(a);
    const admin = await tokenFor(a, ADMIN);
    await cached(b, token);
    expect((await as(a, admin).post(`${PEOPLE}/${person.id}/disable`)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => as(b, token).get(ACCOUNT)));
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 401));
  });

  it('a role taken away on one instance is refused on the other at once, and given back is granted at once', async () => {
    const { a: person, token } = await personWithToken(a, 'realm-viewer');
    const admin = await tokenFor(a, ADMIN);
    await cached(b, token, PEOPLE);
    expect((await as(a, admin).delete(`/api/perm/realms/master/assignments/${person.id}/realm-viewer`)).status).toBe(200);
    expect((await as(b, token).get(PEOPLE)).status).toBe(403);
    expect((await as(a, admin).post('/api/perm/realms/master/assignments', { accountId: person.id, roleId: 'realm-viewer' })).status).toBe(200);
    expect((await as(b, token).get(PEOPLE)).status).toBe(200);
  });

  it('a password change on one instance ends the sessions used on the other', async () => {
    const { a: person, token } = await personWithToken(a);
    const other = await tokenFor(a, person);
    await cached(b, other);
    expect((await as(a, token).post('/api/users/account/password', { oldPassword: PASSWORD, newPassword: 'Another-Pass-58' })).status).toBe(200);
    expect((await as(b, other).get(ACCOUNT)).status).toBe(401);
  });
});

describe('sharedFreshRead', () => {
  it('passes a failed read to its callers and reads again for the next ones', async () => {
    for (const endOfTurn of [false, true]) {
      let fail = true;
      const fresh = sharedFreshRead(
        async () => {
          if (fail) throw new Error('database away');
          return 7;
        },
        { endOfTurn },
      );
      await expect(fresh()).rejects.toThrow('database away');
      fail = false;
      expect(await fresh()).toBe(7);
    }
  });

  for (const endOfTurn of [false, true])
    it(`${endOfTurn ? 'end of turn (PostgreSQL)' : 'at once (SQLite)'}: concurrent callers share one read, sent after the last of them called; a caller during a read waits for the next`, async () => {
      let value = 0;
      const reads: number[] = [];
      const pending: (() => void)[] = [];
      const read = () => {
        reads.push(value);
        const v = value;
        return new Promise<number>((resolve) => pending.push(() => resolve(v)));
      };
      const fresh = sharedFreshRead(read, { endOfTurn });
      const turn = [fresh(), fresh()];
      value = 1; // a change answered before the third caller of this turn called
      turn.push(fresh());
      expect(reads).toEqual([]); // nothing sent while the callers' code runs
      await new Promise((r) => setTimeout(r, 0)); // past this turn's check phase
      expect(reads).toEqual([1]); // one read, after every one of them
      const late = fresh(); // called while that read is under way: it cannot answer for this caller
      value = 2;
      pending.shift()!();
      expect(await Promise.all(turn)).toEqual([1, 1, 1]);
      await new Promise((r) => setTimeout(r, 0)); // past this turn's check phase
      expect(reads).toEqual([1, 2]);
      pending.shift()!();
      expect(await late).toBe(2);
    });

  for (const endOfTurn of [false, true])
    it(`${endOfTurn ? 'end of turn' : 'at once'}: 500 callers over 50 turns, each answered with a value read after it called`, async () => {
      let version = 0;
      let reads = 0;
      const fresh = sharedFreshRead(
        async () => {
          reads++;
          const v = version;
          await new Promise((r) => setTimeout(r, 1));
          return v;
        },
        { endOfTurn },
      );
      const answers: Promise<void>[] = [];
      for (let t = 0; t < 50; t++) {
        for (let i = 0; i < 10; i++) {
          version++; // a change before each caller
          const seen = version;
          answers.push(fresh().then((v) => expect(v).toBeGreaterThanOrEqual(seen)));
        }
        await new Promise((r) => setImmediate(r));
      }
      await Promise.all(answers);
      expect(reads).toBeLessThan(500 / 5);
    });
});
