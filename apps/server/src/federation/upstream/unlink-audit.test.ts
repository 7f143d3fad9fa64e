/**
 * Issue 14: an administrator removing an account's upstream link is on the audit trail —
 * who, in which realm, which account, which issuer; never a token or the upstream subject —
 * and the removal and its record are one transaction (no removal without its record).
 * SQLite and PostgreSQL.
 */
import { expect, it, vi } from 'vitest';
import { eventsNamed, detailOf, trailText } from '../../audit/audit.testkit.js';
import { newId } from '../../platform/crypto.js';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { roleHolder } from '../../directory/person.testkit.js';
import { as, createPerson, createRealm } from '../../test/kit.js';

const ISSUER = 'https://idp.example.test';

/** A person of a new realm linked to an upstream identity, as a first upstream sign-in leaves it. */
async function linkedPerson(h: Harness) {
  const realmId = await createRealm(h);
  const person = await createPerson(h, { realmId });
  const linkId = newId();
  const subject = `sub-${linkId}`;
  await h.ctx.repos.federatedIdentities.insertIdentity({
    id: linkId,
    realm_id: realmId,
    issuer: ISSUER,
    subject,
    account_id: person.id,
    email: null,
    linked_at: h.clock.now(),
  });
  const url = `/api/users/realms/${realmId}/accounts/${person.id}/federated/${linkId}`;
  return { realmId, person, linkId, subject, url };
}

const linkCount = async (h: Harness, realmId: string, accountId: string) => (await h.ctx.repos.federatedIdentities.listForAccount(realmId, accountId)).length;

describeBothDbs('upstream link removal is audited', (h) => {
  it('the removal records account.federated_unlink: the administrator, the realm, the account and the issuer; no subject', async () => {
    const { realmId, person, subject, url } = await linkedPerson(h());
    const admin = await h().login();
    expect((await as(h(), admin).delete(url)).body).toMatchObject({ result: 'ok', data: { removed: true } });

    const [event, ...more] = await eventsNamed(h(), realmId, 'account.federated_unlink');
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      realm_id: realmId,
      actor_name: 'admin',
      target_type: 'account',
      target_id: person.id,
      target_name: person.username,
      result: 'ok',
    });
    expect(event!.actor_id).toBeTruthy();
    expect(detailOf(event!)).toEqual({ issuer: ISSUER });
    expect(await trailText(h(), realmId)).not.toContain(subject);
  });

  it('no link (1004) and a refused caller (403) record nothing', async () => {
    const { realmId, person, url } = await linkedPerson(h());
    const own = await h().login(person.username, person.password, realmId);
    expect((await as(h(), own).delete(url)).status).toBe(403);
    const admin = await h().login();
    expect((await as(h(), admin).delete(`${url}x`)).body).toMatchObject({ result: 'fail', code: 1004 });
    expect(await eventsNamed(h(), realmId, 'account.federated_unlink')).toEqual([]);
    expect(await linkCount(h(), realmId, person.id)).toBe(1);
  });

  it("A-40: a realm-admin of master cannot remove the platform admin's link (1003); it stays, nothing recorded", async () => {
    const { token } = await roleHolder(h(), 'master', 'realm-admin');
    const platformAdmin = (await h().ctx.repos.accounts.findAccountByUsername('master', 'admin'))!;
    const linkId = newId();
    await h().ctx.repos.federatedIdentities.insertIdentity({
      id: linkId,
      realm_id: 'master',
      issuer: ISSUER,
      subject: `sub-${linkId}`,
      account_id: platformAdmin.id,
      email: null,
      linked_at: h().clock.now(),
    });
    const res = await as(h(), token).delete(`/api/users/realms/master/accounts/${platformAdmin.id}/federated/${linkId}`);
    expect(res.body).toMatchObject({ code: 1003, errData: { resource: 'person', perm: 'edit' } });
    expect(await linkCount(h(), 'master', platformAdmin.id)).toBe(1);
    expect(await eventsNamed(h(), 'master', 'account.federated_unlink')).toEqual([]);
  });

  it('when the audit record cannot be written, the link stays: removal and record are one transaction', async () => {
    const { realmId, person, url } = await linkedPerson(h());
    const admin = await h().login();
    const spy = vi.spyOn(h().ctx.services.audit, 'record').mockRejectedValueOnce(new Error('audit store down'));
    try {
      expect((await as(h(), admin).delete(url)).body.result).toBe('fail');
    } finally {
      spy.mockRestore();
    }
    expect(await linkCount(h(), realmId, person.id)).toBe(1);
    expect((await as(h(), admin).delete(url)).body).toMatchObject({ result: 'ok' });
    expect(await linkCount(h(), realmId, person.id)).toBe(0);
  });
});
