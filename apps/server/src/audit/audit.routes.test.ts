/**
 * The audit API (issue 11): a realm's events with filters and keyset paging both ways, the
 * CSV export (formula injection escaped), an account's timeline, who may read what (A-39),
 * events written in the change's own transaction, and retention.
 */
import { expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, bindRole, createPerson, createRealm, PASSWORD, signIn, tokenFor } from '../test/kit.js';
import { sweepAuditEvents } from './audit.jobs.js';
import type { AuditInput } from './audit.service.js';
import { eventsNamed, storedEvents } from './audit.testkit.js';

const path = (realmId: string, q = '') => `/api/users/realms/${encodeURIComponent(realmId)}/audit${q}`;

async function record(h: Harness, e: Partial<AuditInput> & { realmId: string }) {
  await h.ctx.services.audit.record({ actor: null, action: 'test.event', result: 'ok', ...e });
}

/** Every page of a listing, following nextCursor. */
async function walk(h: Harness, token: string, realmId: string, q: string, limit: number) {
  const pages: { ids: string[]; next: string | null; prev: string | null }[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const res = await as(h, token).get(path(realmId, `?limit=${limit}${q}${cursor ? `&cursor=${cursor}` : ''}`));
    expect(res.status).toBe(200);
    const d = res.body.data as { items: { id: string }[]; nextCursor: string | null; prevCursor: string | null };
    pages.push({ ids: d.items.map((i) => i.id), next: d.nextCursor, prev: d.prevCursor });
    cursor = d.nextCursor;
  }
  return pages;
}

describeBothDbs('audit API', (h) => {
  it('lists newest first and pages by keyset both ways, also through rows with the same instant', async () => {
    const realm = await createRealm(h());
    // 7 events: 3 at one instant (ties broken by id), then 4 a second apart.
    for (let i = 0; i < 3; i++) await record(h(), { realmId: realm, action: 'test.tie', detail: { i } });
    for (let i = 0; i < 4; i++) {
      h().clock.advance(1000);
      await record(h(), { realmId: realm, action: 'test.step', detail: { i } });
    }
    const admin = await h().login();
    const all = (await storedEvents(h(), realm)).map((r) => r.id);
    expect(all).toHaveLength(7);

    const pages = await walk(h(), admin, realm, '', 3);
    expect(pages.map((p) => p.ids.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.ids)).toEqual(all);
    expect(pages[0]!.prev).toBeNull();
    expect(pages[2]!.next).toBeNull();
    // Back from the last page: the middle page again, then the first (which says it is the newest).
    const back = await as(h(), admin).get(path(realm, `?limit=3&direction=prev&cursor=${pages[2]!.prev}`));
    expect(back.body.data.items.map((i: { id: string }) => i.id)).toEqual(pages[1]!.ids);
    const first = await as(h(), admin).get(path(realm, `?limit=3&direction=prev&cursor=${back.body.data.prevCursor}`));
    expect(first.body.data.items.map((i: { id: string }) => i.id)).toEqual(pages[0]!.ids);
    expect(first.body.data.prevCursor).toBeNull();
    expect(first.body.data.nextCursor).not.toBeNull();
  });

  it('filters by actor and target (id or name), action (exact or prefix), result and time', async () => {
    const realm = await createRealm(h());
    const alice = { id: 'acc-alice', name: 'alice' };
    const t0 = h().clock.now();
    await record(h(), { realmId: realm, actor: alice, action: 'role.bind', target: { type: 'account', id: 'acc-bob', name: 'bob' } });
    h().clock.advance(10_000);
    await record(h(), { realmId: realm, actor: null, action: 'signin.password', target: { type: 'account', id: 'acc-bob', name: 'bob' }, result: 'fail' });
    h().clock.advance(10_000);
    await record(h(), { realmId: realm, actor: alice, action: 'signin.sms', target: { type: 'account', id: 'acc-alice', name: 'alice' } });
    const admin = await h().login();
    const actions = async (q: string) => ((await as(h(), admin).get(path(realm, q))).body.data.items as { action: string }[]).map((i) => i.action);

    expect(await actions('?actor=alice')).toEqual(['signin.sms', 'role.bind']);
    expect(await actions('?actor=acc-alice')).toEqual(['signin.sms', 'role.bind']);
    expect(await actions('?target=bob')).toEqual(['signin.password', 'role.bind']);
    expect(await actions('?target=acc-bob&result=fail')).toEqual(['signin.password']);
    expect(await actions('?action=signin.')).toEqual(['signin.sms', 'signin.password']);
    expect(await actions('?action=signin.sms')).toEqual(['signin.sms']);
    // `signin.` must not match `signinx…`, nor `signin` alone match `signin.password`.
    expect(await actions('?action=signin')).toEqual([]);
    expect(await actions(`?from=${t0 + 5000}&to=${t0 + 15_000}`)).toEqual(['signin.password']);
    const bad = await as(h(), admin).get(path(realm, '?action=DROP%20TABLE'));
    expect(bad.body).toMatchObject({ code: 1009, errData: { field: 'action' } });
    expect((await as(h(), admin).get(path(realm, '?result=maybe'))).body).toMatchObject({ code: 1009, errData: { field: 'result' } });
  });

  it('A-39 a realm-viewer reads its own realm’s trail only; another realm and every realm (*) are 1003', async () => {
    const a = await createRealm(h());
    const b = await createRealm(h());
    await record(h(), { realmId: a, action: 'test.secret' });
    const viewerB = await createPerson(h(), { realmId: b });
    await bindRole(h(), viewerB, 'realm-viewer');
    const token = await tokenFor(h(), viewerB);
    expect((await as(h(), token).get(path(b))).status).toBe(200);
    for (const realm of [a, '*', 'no-such-realm']) {
      const res = await as(h(), token).get(path(realm));
      expect(res.body).toMatchObject({ result: 'fail', code: 1003, errData: { service: 'users', resource: 'audit', perm: 'query' } });
    }
    // a viewer may not export (audit.export), an anonymous caller gets 1001
    expect((await as(h(), token).get(path(b, '/export.csv'))).body).toMatchObject({ code: 1003 });
    expect((await as(h()).get(path(a))).body).toMatchObject({ code: 1001 });
  });

  it('an administrator of master reads every realm at once with *', async () => {
    const a = await createRealm(h());
    const b = await createRealm(h());
    await record(h(), { realmId: a, action: 'test.star' });
    await record(h(), { realmId: b, action: 'test.star' });
    const admin = await h().login();
    const res = await as(h(), admin).get(path('*', '?action=test.star&limit=100'));
    const realms = (res.body.data.items as { realmId: string }[]).map((i) => i.realmId);
    expect(realms).toEqual(expect.arrayContaining([a, b]));
  });

  it('CSV export: every matching row, quoted per RFC 4180, formula cells escaped, and the export itself recorded', async () => {
    const realm = await createRealm(h());
    const names = ['=HYPERLINK("http://evil.test")', '+1+2', '-3', '@SUM(A1)', '\tTAB', 'plain, with comma'];
    for (const name of names) await record(h(), { realmId: realm, action: 'test.csv', target: { type: 'account', id: `id-${name.length}`, name } });
    const admin = await h().login();
    const res = await as(h(), admin).get(path(realm, '/export.csv?action=test.csv'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-/);
    const lines = res.text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('id,time,realm,actor_id,actor_name,action,target_type,target_id,target_name,result,ip,user_agent,changes,detail');
    expect(lines).toHaveLength(1 + names.length);
    const body = res.text;
    expect(body).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(body).toContain(",'+1+2,");
    expect(body).toContain(",'-3,");
    expect(body).toContain(",'@SUM(A1),");
    expect(body).toContain(",'\tTAB,");
    expect(body).toContain(',"plain, with comma",');
    // no cell begins with a formula character
    for (const line of lines.slice(1)) for (const cell of line.split(',')) expect(cell).not.toMatch(/^[=+\-@\t]/);
    const [exp] = await eventsNamed(h(), realm, 'audit.export');
    expect(exp).toMatchObject({ actor_name: 'admin', result: 'ok' });
    expect(JSON.parse(exp!.detail)).toMatchObject({ count: names.length });
  });

  it('CSV export streams past one batch (1000 rows) without losing or repeating a row', async () => {
    const realm = await createRealm(h());
    const rows = Array.from({ length: 2100 }, (_, i) => ({
      id: `bulk-${String(i).padStart(5, '0')}`,
      at: h().clock.now() - (i % 7),
      realm_id: realm,
      actor_id: null,
      actor_name: '',
      action: 'test.bulk',
      target_type: '',
      target_id: null,
      target_name: '',
      ip: '',
      user_agent: '',
      result: 'ok' as const,
      detail: '{}',
    }));
    for (let i = 0; i < rows.length; i += 500)
      await h()
        .ctx.db.insertInto('audit_events')
        .values(rows.slice(i, i + 500))
        .execute();
    const admin = await h().login();
    const res = await as(h(), admin).get(path(realm, '/export.csv?action=test.bulk'));
    const lines = res.text.split('\r\n').filter(Boolean).slice(1);
    expect(lines).toHaveLength(2100);
    expect(new Set(lines).size).toBe(2100);
  });

  it('an account’s timeline holds what it did and what was done to it, in its realm only (1004 elsewhere)', async () => {
    const realm = await createRealm(h());
    const other = await createRealm(h());
    const p = await createPerson(h(), { realmId: realm });
    expect((await signIn(h(), p)).status).toBe(200); // p acted (signin.password)
    h().clock.advance(1000);
    await record(h(), {
      realmId: realm,
      actor: { id: 'x', name: 'admin' },
      action: 'account.disable',
      target: { type: 'account', id: p.id, name: p.username },
    });
    await record(h(), { realmId: realm, action: 'test.unrelated' });
    const admin = await h().login();
    const res = await as(h(), admin).get(`/api/users/realms/${realm}/accounts/${p.id}/timeline`);
    expect(res.status).toBe(200);
    expect((res.body.data.items as { action: string }[]).map((i) => i.action)).toEqual(['account.disable', 'signin.password']);
    expect((await as(h(), admin).get(`/api/users/realms/${other}/accounts/${p.id}/timeline`)).body).toMatchObject({ code: 1004 });
    // person.get in that realm decides (A-39): a viewer of the other realm is refused before any lookup
    const viewer = await createPerson(h(), { realmId: other });
    await bindRole(h(), viewer, 'realm-viewer');
    const vt = await tokenFor(h(), viewer);
    expect((await as(h(), vt).get(`/api/users/realms/${realm}/accounts/${p.id}/timeline`)).body).toMatchObject({ code: 1003 });
  });

  it('the event is part of the change’s transaction: when recording fails the password stays as it was; when the change fails after recording, no event stays', async () => {
    const realm = await createRealm(h());
    const p = await createPerson(h(), { realmId: realm });
    const token = await tokenFor(h(), p);
    const repo = h().ctx.repos.audit;
    const original = repo.insertAuditEvent;
    try {
      // 1. the audit insert fails → the change is rolled back
      repo.insertAuditEvent = async () => {
        throw new Error('audit insert failed');
      };
      const res = await as(h(), token).post('/api/users/account/password', { oldPassword: PASSWORD, newPassword: 'Changed-Pass-55' });
      expect(res.status).toBe(500);
      repo.insertAuditEvent = original;
      expect((await signIn(h(), { ...p, password: 'Changed-Pass-55' })).body.code).toBe(1010);
      expect((await signIn(h(), p)).status).toBe(200);
      // 2. the event is written, then the transaction fails → neither the event nor the change remain
      repo.insertAuditEvent = async (row, trx) => {
        await original(row, trx);
        if (row.action === 'password.changed') throw new Error('later step failed');
      };
      const res2 = await as(h(), token).post('/api/users/account/password', { oldPassword: PASSWORD, newPassword: 'Changed-Pass-66' });
      expect(res2.status).toBe(500);
    } finally {
      repo.insertAuditEvent = original;
    }
    expect(await eventsNamed(h(), realm, 'password.changed')).toHaveLength(0);
    expect((await signIn(h(), { ...p, password: 'Changed-Pass-66' })).body.code).toBe(1010);
  });

  it('retention: the sweep removes events older than the retention only', async () => {
    const realm = await createRealm(h());
    const now = h().clock.now();
    const day = 86_400_000;
    const row = (id: string, at: number) => ({
      id,
      at,
      realm_id: realm,
      actor_id: null,
      actor_name: '',
      action: 'test.age',
      target_type: '',
      target_id: null,
      target_name: '',
      ip: '',
      user_agent: '',
      result: 'ok' as const,
      detail: '{}',
    });
    await h()
      .ctx.db.insertInto('audit_events')
      .values([row(`old-${realm}`, now - 181 * day), row(`edge-${realm}`, now - 179 * day), row(`new-${realm}`, now - day)])
      .execute();
    expect(h().ctx.config.auditRetentionDays).toBe(180);
    await sweepAuditEvents({ audit: h().ctx.repos.audit, clock: h().clock, retentionDays: h().ctx.config.auditRetentionDays });
    const left = (await storedEvents(h(), realm)).map((r) => r.id);
    expect(left.sort()).toEqual([`edge-${realm}`, `new-${realm}`]);
  });
});

describeBothDbs(
  'audit retention from AUDIT_RETENTION_DAYS',
  (h) => {
    it('the job runner sweeps with the configured days', async () => {
      const realm = await createRealm(h());
      const now = h().clock.now();
      await h()
        .ctx.db.insertInto('audit_events')
        .values(
          [3, 0.5].map((d) => ({
            id: `ret-${d}-${realm}`,
            at: now - d * 86_400_000 - 1,
            realm_id: realm,
            actor_id: null,
            actor_name: '',
            action: 'test.ret',
            target_type: '',
            target_id: null,
            target_name: '',
            ip: '',
            user_agent: '',
            result: 'ok' as const,
            detail: '{}',
          })),
        )
        .execute();
      const { coreJobs } = await import('../composition/jobs.js');
      const job = coreJobs(h().ctx).find((j) => j.name === 'sweep-audit-events')!;
      await job.run();
      expect((await storedEvents(h(), realm)).map((r) => r.id)).toEqual([`ret-0.5-${realm}`]);
    });
  },
  { AUDIT_RETENTION_DAYS: '1' },
);
