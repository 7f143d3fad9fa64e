/**
 * /api/users/realms over HTTP on both databases (issue 11): the domain list and who sees
 * what, create with SPEC §5's rules, the fixed realm id, delete with its two confirmations
 * and everything in the realm going in one transaction, master undeletable, A-39 isolation,
 * and the audit event of each change.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, createPerson, createService, issueSession, newRealmId } from '../test/kit.js';
import { apiRealm, auditRows, createBody, holder, newDomain, rawRealm, realmsUrl, realmUrl, settingsUrl } from './realms.testkit.js';

describeBothDbs('realms API', (h) => {
  const admin = () => h().login();

  it('create: the realm exists with the defaults, appears in the list and its audit event names fields only', async () => {
    const token = await admin();
    const body = createBody();
    const res = await as(h(), token).post(realmsUrl, body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      realmId: body.realmId,
      domain: body.domain,
      description: body.description,
      backend_type: 'default',
      accountCount: 0,
    });
    expect(res.body.data.settings).toMatchObject({ realmId: body.realmId, backend: null, oauth: null, protection: { account: { freeFailures: 3 } } });

    const list = await as(h(), token).get(`${realmsUrl}?q=${body.realmId}`);
    expect(list.body.data).toMatchObject({ total: 1, items: [{ realmId: body.realmId, domain: body.domain }] });
    const byDomain = await as(h(), token).get(`${realmsUrl}?q=${body.domain.slice(0, 6).toUpperCase()}`);
    expect(byDomain.body.data.items.map((r: { realmId: string }) => r.realmId)).toContain(body.realmId);

    const [event] = await auditRows(h(), body.realmId);
    expect(event).toMatchObject({ action: 'realm.create', result: 'ok', target_id: body.realmId, actor_name: 'admin' });
    expect(JSON.parse(event!.detail).changes).toEqual(['realmId', 'domain', 'description']);
  });

  it('create: SPEC §5 rules on realm id, domain and description, each refused with 1009 naming the field and nothing written', async () => {
    const token = await admin();
    const bad: [Record<string, unknown>, string][] = [
      [{ realmId: 'A-upper' }, 'realmId'],
      [{ realmId: 'x' }, 'realmId'],
      [{ realmId: '-leading' }, 'realmId'],
      [{ realmId: 'has space' }, 'realmId'],
      [{ realmId: 'r'.repeat(64) }, 'realmId'],
      [{ domain: 'ab' }, 'domain'],
      [{ domain: `${'a'.repeat(64)}.example.com` }, 'domain'],
      [{ domain: 'exa mple.com' }, 'domain'],
      [{ domain: 'a.*.example.com' }, 'domain'],
      [{ description: 'abc' }, 'description'],
      [{ description: 'd'.repeat(51) }, 'description'],
      [{ isSuperAdmin: true }, 'isSuperAdmin'],
    ];
    for (const [extra, field] of bad) {
      const body = createBody(extra);
      const res = await as(h(), token).post(realmsUrl, body);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body).toMatchObject({ code: 1009, errData: { field } });
      expect(await rawRealm(h(), body.realmId)).toBeUndefined();
    }
    const good: Record<string, unknown>[] = [
      { realmId: `a1${newRealmId()}`.slice(0, 10) },
      { realmId: `r_${newRealmId()}-x` },
      { domain: `*.${newDomain()}` },
      { domain: `${'a'.repeat(63)}.example.com` },
      { description: 'abcd' },
      { description: 'd'.repeat(50) },
    ];
    for (const extra of good) expect((await as(h(), token).post(realmsUrl, createBody(extra))).status, JSON.stringify(extra)).toBe(200);
  });

  it('the realm id is unique (1030) and fixed: a PATCH naming it is refused and changes nothing', async () => {
    const token = await admin();
    const id = await apiRealm(h(), token);
    const again = await as(h(), token).post(realmsUrl, createBody({ realmId: id }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 1030, errData: { field: 'realmId' } });
    const before = await rawRealm(h(), id);
    const renamed = await as(h(), token).patch(realmUrl(id), { realmId: 'other' });
    expect(renamed.body).toMatchObject({ code: 1009, errData: { field: 'realmId' } });
    expect(await rawRealm(h(), id)).toEqual(before);

    const domain = newDomain();
    const ok = await as(h(), token).patch(realmUrl(id), { domain, description: 'changed text' });
    expect(ok.body.data).toMatchObject({ realmId: id, domain, description: 'changed text' });
    // the fake clock stands still: find the event by its action, not its place
    const update = (await auditRows(h(), id)).find((e) => e.action === 'realm.update');
    expect(JSON.parse(update!.detail).changes).toEqual(['domain', 'description']);
  });

  it('master cannot be deleted (1031)', async () => {
    const res = await as(h(), await admin()).delete(realmUrl('master'), { confirmDeleteEverything: true, accountCount: 1 });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(1031);
    expect(await rawRealm(h(), 'master')).toBeDefined();
  });

  it('delete: an empty realm goes on the first confirmation; one with accounts needs the second naming the real count', async () => {
    const token = await admin();
    const empty = await apiRealm(h(), token);
    expect((await as(h(), token).delete(realmUrl(empty))).body.data).toEqual({ realmId: empty, accountCount: 0 });
    expect(await rawRealm(h(), empty)).toBeUndefined();

    const full = await apiRealm(h(), token);
    const owner = await createPerson(h(), { realmId: full });
    await createService(h(), owner, 'robot01');
    for (const body of [
      undefined,
      { confirmDeleteEverything: true },
      { confirmDeleteEverything: true, accountCount: 1 },
      { confirmDeleteEverything: false, accountCount: 2 },
    ]) {
      const res = await as(h(), token).delete(realmUrl(full), body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body).toMatchObject({ code: 1032, errData: { accountCount: 2 } });
    }
    expect(await rawRealm(h(), full)).toBeDefined();
    expect((await as(h(), token).get(realmUrl(full))).body.data.accountCount).toBe(2);
  });

  it('delete cascade: accounts, sessions, OTP, roles and bindings, codes of the realm go in one transaction; other realms keep theirs', async () => {
    const token = await admin();
    const doomed = await apiRealm(h(), token);
    const kept = await apiRealm(h(), token);
    const { person: a } = await holder(h(), doomed, 'realm-admin');
    await issueSession(h(), a);
    const { person: b, token: bToken } = await holder(h(), kept, 'realm-viewer');
    // an account of master bound in the doomed realm loses that binding, not its account
    const outsider = await createPerson(h());
    await h().ctx.repos.roles.bindRole(outsider.id, 'realm-viewer', doomed, h().clock.now());
    await h().ctx.repos.codes.putCode(
      { realmId: doomed, purpose: 'captcha', targetHash: 'x' },
      { codeHash: 'c', serialNo: 's', subject: '', createdAt: 1, expiresAt: 2 },
      0,
    );

    const res = await as(h(), token).delete(realmUrl(doomed), { confirmDeleteEverything: true, accountCount: 1 });
    expect(res.body.data).toEqual({ realmId: doomed, accountCount: 1 });
    const db = h().dbh.db;
    const count = async (table: 'accounts' | 'sessions' | 'role_bindings' | 'verification_codes', realmId: string) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('realm_id', '=', realmId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const table of ['accounts', 'sessions', 'role_bindings', 'verification_codes'] as const) expect(await count(table, doomed), table).toBe(0);
    expect(await h().ctx.repos.accounts.findAccountById('master', outsider.id)).toBeDefined();
    expect(await h().ctx.repos.accounts.findAccountById(kept, b.id)).toBeDefined();
    expect((await as(h(), bToken).get(realmUrl(kept))).status).toBe(200);
    const [event] = (await auditRows(h(), 'master')).filter((e) => e.action === 'realm.delete' && e.target_id === doomed);
    expect(JSON.parse(event!.detail)).toMatchObject({ accountCount: 1 });
    // README "deviations": the realm's own trail stays (its creation included) until retention sweeps it
    expect((await auditRows(h(), doomed)).map((e) => e.action)).toContain('realm.create');
  });

  it('A-39: an administrator of realm A cannot read, change or delete realm B (1003, nothing changed) and lists only A', async () => {
    const token = await admin();
    const a = await apiRealm(h(), token);
    const b = await apiRealm(h(), token);
    const { token: aAdmin } = await holder(h(), a, 'realm-admin');
    const before = await rawRealm(h(), b);
    const tries = [
      as(h(), aAdmin).get(realmUrl(b)),
      as(h(), aAdmin).patch(realmUrl(b), { description: 'taken over' }),
      as(h(), aAdmin).delete(realmUrl(b)),
      as(h(), aAdmin).get(settingsUrl(b)),
      as(h(), aAdmin).patch(settingsUrl(b), { needActive: false }),
      as(h(), aAdmin).get(`${realmUrl(b)}/export`),
      as(h(), aAdmin).post(`${settingsUrl(b)}/test-mail`, { to: 'x@example.com' }),
      // an unknown realm answers the same: nothing tells which ids exist
      as(h(), aAdmin).get(realmUrl('no-such-realm')),
    ];
    for (const res of await Promise.all(tries)) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(1003);
    }
    expect(await rawRealm(h(), b)).toEqual(before);
    const list = await as(h(), aAdmin).get(realmsUrl);
    expect(list.body.data).toMatchObject({ total: 1, items: [{ realmId: a }] });
    expect((await as(h(), aAdmin).get(realmUrl(a))).status).toBe(200);
  });

  it('creating and deleting realms are for the platform administrators: a realm-admin gets 1003, a viewer cannot edit', async () => {
    const token = await admin();
    const a = await apiRealm(h(), token);
    const { token: aAdmin } = await holder(h(), a, 'realm-admin');
    const body = createBody();
    const created = await as(h(), aAdmin).post(realmsUrl, body);
    expect(created.body).toMatchObject({ code: 1003, errData: { resource: 'domain', perm: 'add' } });
    expect(await rawRealm(h(), body.realmId)).toBeUndefined();
    const deleted = await as(h(), aAdmin).delete(realmUrl(a));
    expect(deleted.body).toMatchObject({ code: 1003, errData: { perm: 'delete' } });
    expect(await rawRealm(h(), a)).toBeDefined();

    const { token: viewer } = await holder(h(), a, 'realm-viewer');
    expect((await as(h(), viewer).get(realmUrl(a))).status).toBe(200);
    expect((await as(h(), viewer).patch(realmUrl(a), { description: 'viewer edit' })).body.code).toBe(1003);
    // an account without any domain permission lists nothing: 1003
    const { token: nobody } = await holder(h(), a);
    expect((await as(h(), nobody).get(realmsUrl)).body.code).toBe(1003);
    expect((await as(h()).get(realmsUrl)).status).toBe(401);
  });
});
