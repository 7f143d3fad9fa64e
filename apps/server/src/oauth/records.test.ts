/**
 * OAuth records (SPEC §2 account/oauthList, §3; issue 12) on both databases: a user lists and
 * revokes their own grants, administrators those of their realm; revoking ends the grant's
 * token families (and the sub-client ones derived from them); other users' and other realms'
 * records are out of reach.
 */
import { clientPaths } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { addClient } from '../clients/clients.testkit.js';
import { holder } from '../perm/roles.testkit.js';
import { newId } from '../platform/crypto.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createPerson, createRealm, tokenFor, type TestAccount } from '../test/kit.js';

describeBothDbs('OAuth records', (h) => {
  const admin = () => h().login();

  /** A grant of `account` to the client (its record and a live token family), as the authorize endpoint leaves it. */
  async function grant(account: TestAccount, clientId: string, parentFamily?: string) {
    const client = (await h().ctx.repos.clients.findByClientId(account.realmId, clientId))!;
    const now = h().clock.now();
    await h().ctx.repos.oauthConsents.upsert({ realmId: account.realmId, accountId: account.id, clientRef: client.id, scope: 'openid profile', now });
    const familyId = newId();
    await h().ctx.repos.oauthFamilies.insert({
      id: familyId,
      realm_id: account.realmId,
      client_ref: client.id,
      account_id: account.id,
      grant_type: 'authorization_code',
      scope: 'openid profile',
      auth_time: now,
      sid: null,
      parent_id: parentFamily ?? null,
      actor_client_id: null,
      created_at: now,
      expires_at: now + 86_400_000,
      revoked_at: null,
      revoke_reason: null,
    });
    return familyId;
  }
  const revokedAt = async (familyId: string) => (await h().ctx.repos.oauthFamilies.find(familyId))?.revoked_at ?? null;

  it('a user lists their own records (client name, client id, OAuth time) and revokes one: the record goes, its tokens and derived sub-client tokens end', async () => {
    const token = await admin();
    const realmId = await createRealm(h());
    const app = await addClient(h(), token, realmId, { clientId: 'robot-app', name: 'Robot App' });
    await as(h(), token).post(clientPaths.subClients({ realmId }, 'robot-app'), {
      name: 'arm.app',
      desc: 'the arm',
      subClientId: 'arm-app',
      allowToken: true,
      redirectUris: ['https://arm.test/cb'],
    });
    const other = await addClient(h(), token, realmId, { clientId: 'other-app' });
    const user = await createPerson(h(), { realmId });
    const stranger = await createPerson(h(), { realmId });
    const family = await grant(user, 'robot-app');
    const derived = await grant(user, 'arm-app', family);
    const kept = await grant(user, 'other-app');
    const strangers = await grant(stranger, 'robot-app');
    const userToken = await tokenFor(h(), user);

    const list = await as(h(), userToken).get(clientPaths.ownRecords);
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(3);
    expect(list.body.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ clientName: 'Robot App', clientId: 'robot-app', scope: 'openid profile', oauthTime: h().clock.now(), accountId: user.id }),
      ]),
    );
    expect(list.body.data.items.every((r: { accountId: string }) => r.accountId === user.id)).toBe(true);

    // another user's record, or a client of another realm, is not the caller's to revoke
    expect((await as(h(), await tokenFor(h(), stranger)).delete(clientPaths.ownRecord('other-app'))).status).toBe(404);
    const revoked = await as(h(), userToken).delete(clientPaths.ownRecord(app.client.clientId));
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(await revokedAt(family)).not.toBeNull();
    expect(await revokedAt(derived)).not.toBeNull();
    expect(await revokedAt(kept)).toBeNull();
    expect(await revokedAt(strangers)).toBeNull();
    expect((await as(h(), userToken).get(clientPaths.ownRecords)).body.data.items.map((r: { clientId: string }) => r.clientId).sort()).toEqual([
      'arm-app',
      other.client.clientId,
    ]);
    expect((await as(h(), userToken).delete(clientPaths.ownRecord(app.client.clientId))).status).toBe(404);
    const events = await h()
      .dbh.db.selectFrom('audit_events')
      .selectAll()
      .where('realm_id', '=', realmId)
      .where('action', '=', 'oauth.consent_revoke')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_id: user.id, target_id: 'robot-app' });
  });

  it('administrators list their realm’s records with the account name and revoke them (oauthList); another realm’s admin gets 1003, another realm’s ids 1004', async () => {
    const token = await admin();
    const a = await createRealm(h());
    const b = await createRealm(h());
    await addClient(h(), token, a, { clientId: 'fleet-app', name: 'Fleet' });
    await addClient(h(), token, b, { clientId: 'fleet-app', name: 'Fleet B' });
    const alice = await createPerson(h(), { realmId: a });
    const bobOfB = await createPerson(h(), { realmId: b });
    const family = await grant(alice, 'fleet-app');
    const familyB = await grant(bobOfB, 'fleet-app');
    const adminA = (await holder(h(), a, 'realm-admin')).token;
    const adminB = (await holder(h(), b, 'realm-admin')).token;

    const list = await as(h(), adminA).get(clientPaths.realmRecords(a));
    expect(list.body.data).toMatchObject({
      total: 1,
      items: [{ clientName: 'Fleet', clientId: 'fleet-app', accountId: alice.id, accountName: alice.username }],
    });
    expect((await as(h(), adminB).get(clientPaths.realmRecords(a))).body).toMatchObject({ code: 1003, errData: { resource: 'oauthList', perm: 'query' } });
    expect((await as(h(), adminB).delete(clientPaths.realmRecord(a, alice.id, 'fleet-app'))).body).toMatchObject({ code: 1003 });
    // realm B's path with realm A's account: nothing found, nothing revoked
    expect((await as(h(), adminB).delete(clientPaths.realmRecord(b, alice.id, 'fleet-app'))).status).toBe(404);
    expect((await as(h(), (await holder(h(), a, 'realm-viewer')).token).delete(clientPaths.realmRecord(a, alice.id, 'fleet-app'))).body.code).toBe(1003);
    expect(await revokedAt(family)).toBeNull();

    expect((await as(h(), adminA).delete(clientPaths.realmRecord(a, alice.id, 'fleet-app'))).status).toBe(200);
    expect(await revokedAt(family)).not.toBeNull();
    expect(await revokedAt(familyB)).toBeNull();
    expect((await as(h(), adminA).get(clientPaths.realmRecords(a))).body.data).toEqual({ items: [], total: 0 });
    expect((await as(h(), adminB).get(clientPaths.realmRecords(b))).body.data.total).toBe(1);
  });
});
