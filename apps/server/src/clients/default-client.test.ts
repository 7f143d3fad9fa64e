/**
 * Each realm's default client (issue 12 "Clients") on both databases: master's at start, a new
 * realm's in its creating transaction, realms that predate it (idempotent, several at once),
 * default_client_id changed by administrators only to a client of the realm, the default
 * client kept from deletion, and a deleted realm's clients gone with it.
 */
import { clientPaths, realmPaths } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { ensureDefaultClients } from '../composition/bootstrap.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createRealm, newRealmId } from '../test/kit.js';
import { addClient, adminClient } from './clients.testkit.js';

describeBothDbs('clients: the default client of a realm', (h) => {
  const admin = () => h().login();
  const settingsUrl = (realmId: string) => `${realmPaths.realm(realmId)}/settings`;
  const defaultIdOf = async (realmId: string) => (await as(h(), await admin()).get(settingsUrl(realmId))).body.data.default_client_id as string;

  it('master has one from the start: public (PKCE), no consent screen, the console’s sign-in page as redirect URI', async () => {
    const id = await defaultIdOf('master');
    expect(id).toBe('master');
    const res = await as(h(), await admin()).get(adminClient('master', id));
    expect(res.body.data).toMatchObject({
      clientId: 'master',
      name: 'master',
      isDefault: true,
      tokenEndpointAuthMethod: 'none',
      hasSecret: false,
      consentRequired: false,
      redirectUris: ['http://umbo.test/user/loginSSO'],
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    const list = await as(h(), await admin()).get(`${clientPaths.list({ realmId: 'master' })}?parent=none&limit=100`);
    expect(list.body.data.items.filter((c: { isDefault: boolean }) => c.isDefault).map((c: { clientId: string }) => c.clientId)).toEqual(['master']);
  });

  it('a realm created through the API gets its default client in the same transaction, named after the realm', async () => {
    const realmId = newRealmId();
    const created = await as(h(), await admin()).post(realmPaths.list, { realmId, domain: 'robots.example.test', description: 'robot fleet' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.settings.default_client_id).toBe(realmId);
    const client = await h().ctx.repos.clients.findByClientId(realmId, realmId);
    expect(client).toMatchObject({ name: 'robots.example.test', tokenEndpointAuthMethod: 'none', secretHash: null, parentId: null });
    // a refused creation (id taken) leaves no client behind
    const again = await as(h(), await admin()).post(realmPaths.list, { realmId, domain: 'robots.example.test', description: 'robot fleet' });
    expect(again.body.code).toBe(1030);
    expect(await h().dbh.db.selectFrom('oauth_clients').select('id').where('realm_id', '=', realmId).execute()).toHaveLength(1);
  });

  it('realms made before the provider get theirs at start: idempotent, one client when several instances do it at once', async () => {
    const realmId = await createRealm(h());
    expect(await h().ctx.repos.clients.findByClientId(realmId, realmId)).toBeUndefined();
    await Promise.all([ensureDefaultClients(h().ctx), ensureDefaultClients(h().ctx), h().ctx.services.clients.ensureDefault(realmId)]);
    await ensureDefaultClients(h().ctx);
    expect(await h().dbh.db.selectFrom('oauth_clients').select('client_id').where('realm_id', '=', realmId).execute()).toEqual([{ client_id: realmId }]);
    expect(await defaultIdOf(realmId)).toBe(realmId);
    // a realm whose setting names a client it lacks (an import) gets it under that name
    const named = await createRealm(h(), { default_client_id: 'console-app' });
    await ensureDefaultClients(h().ctx);
    expect(await h().ctx.repos.clients.findByClientId(named, 'console-app')).toMatchObject({ tokenEndpointAuthMethod: 'none' });
    expect(await defaultIdOf(named)).toBe('console-app');
  });

  it('default_client_id: only an enabled top-level client of the realm (1073); the default cannot be deleted or disabled (1074) until it moves', async () => {
    const token = await admin();
    const realmId = await createRealm(h());
    const other = await createRealm(h());
    await ensureDefaultClients(h().ctx);
    const { client } = await addClient(h(), token, realmId, { clientId: 'next-default' });
    const foreign = await addClient(h(), token, other, { clientId: 'foreign-app' });
    await as(h(), token).post(clientPaths.subClients({ realmId }, 'next-default'), {
      name: 'abc',
      desc: 'a sub',
      subClientId: 'sub-app',
      redirectUris: ['https://x.test/cb'],
    });
    const disabled = await addClient(h(), token, realmId, { clientId: 'off-app', disabled: true });
    for (const id of ['nope', '', foreign.client.clientId, 'sub-app', disabled.client.clientId]) {
      const res = await as(h(), token).patch(settingsUrl(realmId), { default_client_id: id });
      expect(res.body, id).toMatchObject({ code: 1073, errData: { field: 'default_client_id' } });
    }
    expect(await defaultIdOf(realmId)).toBe(realmId);

    expect((await as(h(), token).delete(adminClient(realmId, realmId))).body.code).toBe(1074);
    expect((await as(h(), token).patch(adminClient(realmId, realmId), { disabled: true })).body.code).toBe(1074);
    expect((await as(h(), token).patch(settingsUrl(realmId), { default_client_id: client.clientId })).status).toBe(200);
    expect((await as(h(), token).get(adminClient(realmId, client.clientId))).body.data.isDefault).toBe(true);
    expect((await as(h(), token).delete(adminClient(realmId, realmId))).status).toBe(200);
    expect((await as(h(), token).delete(adminClient(realmId, client.clientId))).body.code).toBe(1074);
  });

  it('deleting a realm deletes its clients and sub clients', async () => {
    const token = await admin();
    const realmId = newRealmId();
    await as(h(), token).post(realmPaths.list, { realmId, domain: 'gone.example.test', description: 'to be deleted' });
    await addClient(h(), token, realmId, { clientId: 'parent-app' });
    await as(h(), token).post(clientPaths.subClients({ realmId }, 'parent-app'), { name: 'abc', desc: 'a sub', redirectUris: ['https://x.test/cb'] });
    expect(await h().dbh.db.selectFrom('oauth_clients').select('id').where('realm_id', '=', realmId).execute()).toHaveLength(3);
    const res = await as(h(), token).delete(realmPaths.realm(realmId), {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await h().dbh.db.selectFrom('oauth_clients').select('id').where('realm_id', '=', realmId).execute()).toEqual([]);
  });
});
