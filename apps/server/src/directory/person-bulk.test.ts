/**
 * Bulk enable, disable and delete of person accounts over HTTP on both databases (issue 11):
 * one transaction, one audit event per account, sessions ended on disable, unknown ids
 * reported, the caller's own account or a selection over 500 refused with nothing changed.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, createPerson, createRealm, issueSession } from '../test/kit.js';
import { accountEvents, personCount, personPath, personsPath, roleHolder } from './person.testkit.js';

describeBothDbs('person accounts: bulk', (h) => {
  const disabledOf = async (realmId: string, ids: string[]) =>
    Promise.all(ids.map(async (id) => (await h().ctx.repos.accounts.findAccountById(realmId, id))?.disabled));

  it('disables three (their sessions end), reports an unknown id, records one event each; enables them again; deletes them', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const people = [await createPerson(h(), { realmId }), await createPerson(h(), { realmId }), await createPerson(h(), { realmId })];
    const ids = people.map((p) => p.id);
    const sessions = await Promise.all(people.map((p) => issueSession(h(), p)));
    const off = await as(h(), token).post(`${personsPath(realmId)}/bulk/disable`, { ids: [...ids, 'nosuchaccount', ids[0]] });
    expect(off.body).toEqual({ result: 'ok', code: 0, data: { done: 3, notFound: ['nosuchaccount'] } });
    expect(await disabledOf(realmId, ids)).toEqual([1, 1, 1]);
    for (const s of sessions) expect((await as(h(), s).get('/api/users/account')).status).toBe(401);
    const events = (await accountEvents(h(), realmId)).filter((e) => e.action === 'account.disable');
    expect(events.map((e) => e.target?.id).sort()).toEqual([...ids].sort());
    expect(events[0]).toMatchObject({ detail: { bulk: true }, changes: ['disabled'] });

    const on = await as(h(), token).post(`${personsPath(realmId)}/bulk/enable`, { ids });
    expect(on.body.data).toEqual({ done: 3, notFound: [] });
    expect(await disabledOf(realmId, ids)).toEqual([0, 0, 0]);

    const del = await as(h(), token).post(`${personsPath(realmId)}/bulk/delete`, { ids });
    expect(del.body.data).toEqual({ done: 3, notFound: [] });
    expect(await personCount(h(), realmId)).toBe(1);
    expect((await accountEvents(h(), realmId)).filter((e) => e.action === 'account.delete')).toHaveLength(3);
  });

  it('a bulk delete, a bulk disable and one delete per account, all at once: each account deleted once, one event each, never a 500', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const people = await Promise.all(Array.from({ length: 20 }, () => createPerson(h(), { realmId })));
    const ids = people.map((p) => p.id);
    const [bulkDelete, bulkDisable, ...singles] = await Promise.all([
      as(h(), token).post(`${personsPath(realmId)}/bulk/delete`, { ids }),
      as(h(), token).post(`${personsPath(realmId)}/bulk/disable`, { ids }),
      ...ids.map((id) => as(h(), token).delete(personPath(realmId, id))),
    ]);
    for (const r of [bulkDelete!, bulkDisable!, ...singles]) expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
    // every account went exactly once: either in the bulk delete or by its own delete (the other says 404)
    const singleDone = singles.filter((r) => r.status === 200).length;
    for (const r of singles.filter((x) => x.status !== 200)) expect(r.status).toBe(404);
    expect((bulkDelete!.body.data?.done ?? 0) + singleDone).toBe(ids.length);
    expect(await personCount(h(), realmId)).toBe(1);
    expect((await accountEvents(h(), realmId)).filter((e) => e.action === 'account.delete')).toHaveLength(ids.length);
  });

  it('a selection holding the caller is 1042 and nothing changes; more than 500 ids, none, or an unknown field is 1009', async () => {
    const realmId = await createRealm(h());
    const { token, person: me } = await roleHolder(h(), realmId, 'realm-admin');
    const other = await createPerson(h(), { realmId });
    const self = await as(h(), token).post(`${personsPath(realmId)}/bulk/disable`, { ids: [other.id, me.id] });
    expect(self.body).toMatchObject({ code: 1042 });
    expect(await disabledOf(realmId, [other.id, me.id])).toEqual([0, 0]);
    for (const body of [{ ids: Array.from({ length: 501 }, (_, i) => `id${i}`) }, { ids: [] }, { ids: [other.id], action: 'delete' }]) {
      const res = await as(h(), token).post(`${personsPath(realmId)}/bulk/delete`, body);
      expect(res.body).toMatchObject({ code: 1009 });
    }
    expect(await personCount(h(), realmId)).toBe(2);
  });

  it('A-40: a selection holding an account with more rights than the caller is 1003 and nothing changes', async () => {
    const realmId = await createRealm(h());
    const { token } = await roleHolder(h(), realmId, 'realm-admin');
    const plain = await createPerson(h(), { realmId });
    // `admin` in this realm holds grants a realm-admin lacks (role, audit); `admin` in master reaches every realm.
    const { person: realmWideAdmin } = await roleHolder(h(), realmId, 'admin');
    const platformAdmin = await createPerson(h(), { realmId });
    await h().ctx.repos.roles.bindRole(platformAdmin.id, 'admin', 'master', h().clock.now());
    for (const wider of [realmWideAdmin, platformAdmin]) {
      const res = await as(h(), token).post(`${personsPath(realmId)}/bulk/disable`, { ids: [plain.id, wider.id] });
      expect(res.body).toMatchObject({ code: 1003, errData: { resource: 'person', perm: 'disable' } });
    }
    expect(await disabledOf(realmId, [plain.id, realmWideAdmin.id, platformAdmin.id])).toEqual([0, 0, 0]);
  });
});
