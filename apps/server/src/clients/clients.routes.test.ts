/**
 * OAuth clients and sub clients over HTTP on both databases (issue 12): SPEC §3/§5 fields and
 * rules, A-03 redirect URIs, secrets shown once and stored hashed (AS-12), regeneration,
 * sub-client id uniqueness under 40 parallel creations, developers' own clients, realm
 * isolation (A-39) and mass assignment (A-40).
 */
import { clientPaths } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { holder } from '../perm/roles.testkit.js';
import { describeBothDbs } from '../test/harness.js';
import { as, bindRole, createPerson, createRealm, createService, tokenFor } from '../test/kit.js';
import { SECRET_PURPOSE } from './clients.service.js';
import { addClient, adminClient, adminClients, allClientText, clientBody, developer, OWN } from './clients.testkit.js';

describeBothDbs('clients: administration', (h) => {
  const admin = () => h().login();

  it('CRUD: create answers every SPEC §3 field and the secret once; get, list (with sub clients), change, delete', async () => {
    const token = await admin();
    const realmId = await createRealm(h());
    const created = await addClient(h(), token, realmId, {
      loginTips: 'Use your robot account',
      loginUrl: 'https://app.test/',
      registUrl: 'https://app.test/join',
    });
    const { client, clientSecret } = created;
    expect(client.clientId).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(clientSecret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(client).toMatchObject({
      realmId,
      desc: 'a client for tests',
      authCodeMulitUse: false,
      tokenExpirSec: 3600,
      refreshtokenExpirSec: 86400,
      refreshTokenRecreate: true,
      redirectUris: ['https://app.test/cb'],
      loginTips: 'Use your robot account',
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      consentRequired: true,
      signingAlg: 'ES256',
      hasSecret: true,
      isDefault: false,
      parentClientId: null,
      ownerAccountId: null,
    });
    expect(JSON.stringify(client)).not.toContain(clientSecret);

    const got = await as(h(), token).get(adminClient(realmId, client.clientId));
    expect(got.body.data).toEqual(client);
    expect(JSON.stringify(got.body)).not.toContain(clientSecret);

    const sub = await as(h(), token).post(clientPaths.subClients({ realmId }, client.clientId), {
      name: 'arm.controller',
      desc: 'the arm',
      subClientId: 'arm-1',
      allowToken: true,
      redirectUris: ['https://arm.test/cb'],
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data.client).toMatchObject({ clientId: 'arm-1', parentClientId: client.clientId, allowToken: true, allowAuthCode: false, hasSecret: true });

    const list = await as(h(), token).get(`${adminClients(realmId)}?limit=100`);
    const entry = list.body.data.items.find((c: { clientId: string }) => c.clientId === client.clientId);
    expect(entry.subClients.map((s: { clientId: string }) => s.clientId)).toEqual(['arm-1']);
    expect(list.body.data.items.map((c: { clientId: string }) => c.clientId)).not.toContain('arm-1');
    const tops = await as(h(), token).get(`${adminClients(realmId)}?parent=none&limit=100`);
    expect(tops.body.data.items.find((c: { clientId: string }) => c.clientId === client.clientId).subClients).toBeUndefined();
    const subs = await as(h(), token).get(clientPaths.subClients({ realmId }, client.clientId));
    expect(subs.body.data).toMatchObject({ total: 1, items: [{ clientId: 'arm-1' }] });

    const changed = await as(h(), token).patch(adminClient(realmId, client.clientId), { desc: 'the new words', tokenExpirSec: 600, disabled: true });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ desc: 'the new words', tokenExpirSec: 600, disabled: true });
    const flag = await as(h(), token).patch(adminClient(realmId, 'arm-1'), { allowAuthCode: true });
    expect(flag.body.data).toMatchObject({ allowAuthCode: true, allowToken: true });
    const notSub = await as(h(), token).patch(adminClient(realmId, client.clientId), { allowToken: true });
    expect(notSub.body).toMatchObject({ code: 1009, errData: { field: 'allowToken' } });

    const gone = await as(h(), token).delete(adminClient(realmId, client.clientId));
    expect(gone.status).toBe(200);
    expect((await as(h(), token).get(adminClient(realmId, client.clientId))).status).toBe(404);
    expect((await as(h(), token).get(adminClient(realmId, 'arm-1'))).status).toBe(404);
    const events = await h().dbh.db.selectFrom('audit_events').select('action').where('realm_id', '=', realmId).where('action', 'like', 'client.%').execute();
    expect(events.map((e) => e.action).sort()).toEqual(['client.create', 'client.create', 'client.delete', 'client.update', 'client.update'].sort());
  });

  it('A-03: redirect URIs javascript:, data:, non-loopback http, fragments, * and userinfo → 1009 on create and change; loopback http accepted', async () => {
    const token = await admin();
    const bad = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://app.test/cb',
      'https://app.test/cb#frag',
      '*',
      'https://*.app.test/cb',
      'https://user:pw@app.test/cb',
      'https://APP.test/cb',
    ];
    const { client } = await addClient(h(), token, 'master');
    for (const uri of bad) {
      const created = await as(h(), token).post(adminClients('master'), clientBody({ redirectUris: ['https://ok.test/cb', uri] }));
      expect(created.status, uri).toBe(400);
      expect(created.body, uri).toMatchObject({ code: 1009, errData: { field: 'redirectUris.1' } });
      const changed = await as(h(), token).patch(adminClient('master', client.clientId), { redirectUris: [uri] });
      expect(changed.body, uri).toMatchObject({ code: 1009, errData: { field: 'redirectUris.0' } });
      const logout = await as(h(), token).patch(adminClient('master', client.clientId), { postLogoutRedirectUris: [uri] });
      expect(logout.body.code, uri).toBe(1009);
    }
    expect((await as(h(), token).get(adminClient('master', client.clientId))).body.data.redirectUris).toEqual(['https://app.test/cb']);
    const loopback = ['http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'http://localhost:3000/cb'];
    const native = await addClient(h(), token, 'master', { redirectUris: loopback, tokenEndpointAuthMethod: 'none' });
    expect(native.client.redirectUris).toEqual(loopback);
    expect(native.clientSecret).toBeNull();
  });

  it('SPEC §5: description 4-50, expirations > 0, redirect URL required, authCodeMulitUse and refreshTokenRecreate chosen → 1009 naming the field', async () => {
    const token = await admin();
    const cases: [Record<string, unknown>, string][] = [
      [{ desc: 'abc' }, 'desc'],
      [{ desc: 'x'.repeat(51) }, 'desc'],
      [{ tokenExpirSec: 0 }, 'tokenExpirSec'],
      [{ tokenExpirSec: -5 }, 'tokenExpirSec'],
      [{ refreshtokenExpirSec: 0 }, 'refreshtokenExpirSec'],
      [{ tokenExpirSec: 1.5 }, 'tokenExpirSec'],
      [{ redirectUris: [] }, 'redirectUris'],
      [{ authCodeMulitUse: undefined }, 'authCodeMulitUse'],
      [{ refreshTokenRecreate: undefined }, 'refreshTokenRecreate'],
      [{ name: '' }, 'name'],
      [{ clientId: 'a b' }, 'clientId'],
      [{ sourceRanges: ['10.0.0.0/33'], grantTypes: ['client_credentials'] }, 'sourceRanges.0'],
      [{ tokenEndpointAuthMethod: 'none', grantTypes: ['client_credentials'] }, 'grantTypes'],
    ];
    const before = await h().dbh.db.selectFrom('oauth_clients').select('id').execute();
    for (const [patch, field] of cases) {
      const res = await as(h(), token).post(adminClients('master'), clientBody(patch));
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body, JSON.stringify(patch)).toMatchObject({ code: 1009, errData: { field } });
    }
    expect(await h().dbh.db.selectFrom('oauth_clients').select('id').execute()).toHaveLength(before.length);
    const ok = await addClient(h(), token, 'master', { desc: 'abcd', tokenExpirSec: 1, refreshtokenExpirSec: 1 });
    const change = await as(h(), token).patch(adminClient('master', ok.client.clientId), { refreshtokenExpirSec: 0 });
    expect(change.body).toMatchObject({ code: 1009, errData: { field: 'refreshtokenExpirSec' } });
  });

  it('A-40 mass assignment: realmId, ownerAccountId, secretHash, parentId in a body are refused and nothing is written', async () => {
    const token = await admin();
    const other = await createRealm(h());
    const person = await createPerson(h());
    const { client } = await addClient(h(), token, 'master');
    const extras = [{ realmId: other }, { ownerAccountId: person.id }, { secretHash: 'x'.repeat(64) }, { parentId: client.clientId }, { id: 'mine' }];
    for (const extra of extras) {
      const created = await as(h(), token).post(adminClients('master'), clientBody(extra));
      expect(created.body, JSON.stringify(extra)).toMatchObject({ code: 1009, errData: { reason: 'unknown field' } });
      const changed = await as(h(), token).patch(adminClient('master', client.clientId), extra);
      expect(changed.body.code, JSON.stringify(extra)).toBe(1009);
    }
    const row = await h().ctx.repos.clients.findByClientId('master', client.clientId);
    expect(row).toMatchObject({ realmId: 'master', ownerAccountId: null, parentId: null });
    expect(await h().dbh.db.selectFrom('oauth_clients').select('id').where('realm_id', '=', other).execute()).toEqual([]);
    expect(await h().dbh.db.selectFrom('oauth_clients').select('id').where('owner_account_id', '=', person.id).execute()).toEqual([]);
  });

  it('AS-12: the secret is stored only as its keyed hash (not in any column nor the audit trail); regeneration answers a new one and the old stops', async () => {
    const token = await admin();
    const { client, clientSecret } = await addClient(h(), token, 'master', { tokenEndpointAuthMethod: 'client_secret_post' });
    const secret = clientSecret!;
    expect(await allClientText(h())).not.toContain(secret);
    const row = await h().ctx.repos.clients.findByClientId('master', client.clientId);
    expect(row!.secretHash).toBe(h().ctx.secrets.hash(SECRET_PURPOSE, secret));
    const verify = (s: string) => h().ctx.services.clients.verifySecret(row!, s);
    expect(verify(secret)).toBe(true);
    expect(verify(secret.slice(1))).toBe(false);
    expect(verify('')).toBe(false);

    const again = await as(h(), token).post(clientPaths.secret({ realmId: 'master' }, client.clientId));
    expect(again.status).toBe(200);
    const fresh = again.body.data.clientSecret as string;
    expect(fresh).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(fresh).not.toBe(secret);
    const after = (await h().ctx.repos.clients.findByClientId('master', client.clientId))!;
    expect(h().ctx.services.clients.verifySecret(after, secret)).toBe(false);
    expect(h().ctx.services.clients.verifySecret(after, fresh)).toBe(true);
    expect(await allClientText(h())).not.toContain(fresh);
    expect(JSON.stringify((await as(h(), token).get(adminClient('master', client.clientId))).body)).not.toContain(fresh);

    const pub = await addClient(h(), token, 'master', { tokenEndpointAuthMethod: 'none' });
    expect(h().ctx.services.clients.verifySecret((await h().ctx.repos.clients.findByClientId('master', pub.client.clientId))!, '')).toBe(false);
    const none = await as(h(), token).post(clientPaths.secret({ realmId: 'master' }, pub.client.clientId));
    expect(none.body).toMatchObject({ code: 1072 });
    // switching to public drops the secret
    await as(h(), token).patch(adminClient('master', client.clientId), { tokenEndpointAuthMethod: 'none' });
    expect((await h().ctx.repos.clients.findByClientId('master', client.clientId))!.secretHash).toBeNull();
  });

  it('a client id is unique in its realm (1070) and never an account id (AS-20), another realm may use it; sub-client ids: 40 parallel creations of one id → exactly one, the rest 1071', async () => {
    const token = await admin();
    const realmId = await createRealm(h());
    await addClient(h(), token, realmId, { clientId: 'robot-app' });
    const taken = await as(h(), token).post(adminClients(realmId), clientBody({ clientId: 'robot-app' }));
    expect(taken.body).toMatchObject({ code: 1070, errData: { field: 'clientId' } });
    await addClient(h(), token, 'master', { clientId: `robot-app-${realmId}` });
    // AS-20: a client id cannot be an account id (a user's `sub`)
    const person = await createPerson(h(), { realmId });
    expect((await as(h(), token).post(adminClients(realmId), clientBody({ clientId: person.id }))).body).toMatchObject({ code: 1070 });
    await addClient(h(), (await holder(h(), realmId, 'realm-admin')).token, realmId, { clientId: 'robot-app-2' });

    const subUrl = clientPaths.subClients({ realmId }, 'robot-app');
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        as(h(), token).post(subUrl, { name: 'twin.arm', desc: 'a twin', subClientId: 'twin', redirectUris: ['https://twin.test/cb'] }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(39);
    for (const r of refused) expect(r.body).toMatchObject({ code: 1071, errData: { field: 'subClientId' } });
    expect(refused[0]!.body.msg).toContain('Sub-client ID already exists');
    expect(await h().dbh.db.selectFrom('oauth_clients').select('id').where('realm_id', '=', realmId).where('client_id', '=', 'twin').execute()).toHaveLength(1);
    // a sub client id cannot take a top-level client's either
    const clash = await as(h(), token).post(subUrl, { name: 'abc', desc: 'a clash', subClientId: 'robot-app-2', redirectUris: ['https://twin.test/cb'] });
    expect(clash.body.code).toBe(1071);
    // no sub client under a sub client; SPEC §5 sub name
    const deeper = await as(h(), token).post(clientPaths.subClients({ realmId }, 'twin'), { name: 'abc', desc: 'deeper', redirectUris: ['https://x.test/cb'] });
    expect(deeper.body.code).toBe(1075);
    const badName = await as(h(), token).post(subUrl, { name: '1arm', desc: 'bad name', redirectUris: ['https://x.test/cb'] });
    expect(badName.body).toMatchObject({ code: 1009, errData: { field: 'name' } });
  });

  it('A-39: a realm admin of B gets 1003 on realm A’s clients; A’s client ids under B’s path are 1004; nothing changes', async () => {
    const token = await admin();
    const a = await createRealm(h());
    const b = await createRealm(h());
    const { client } = await addClient(h(), token, a);
    const adminB = (await holder(h(), b, 'realm-admin')).token;
    const calls = [
      as(h(), adminB).get(adminClients(a)),
      as(h(), adminB).post(adminClients(a), clientBody()),
      as(h(), adminB).get(adminClient(a, client.clientId)),
      as(h(), adminB).patch(adminClient(a, client.clientId), { desc: 'taken over' }),
      as(h(), adminB).delete(adminClient(a, client.clientId)),
      as(h(), adminB).post(clientPaths.secret({ realmId: a }, client.clientId)),
      as(h(), adminB).post(clientPaths.subClients({ realmId: a }, client.clientId), { name: 'abc', desc: 'a sub', redirectUris: ['https://x.test/cb'] }),
    ];
    for (const res of await Promise.all(calls)) expect(res.body).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'client' } });
    for (const res of await Promise.all([
      as(h(), adminB).get(adminClient(b, client.clientId)),
      as(h(), adminB).patch(adminClient(b, client.clientId), { desc: 'taken over' }),
      as(h(), adminB).delete(adminClient(b, client.clientId)),
      as(h(), adminB).post(clientPaths.secret({ realmId: b }, client.clientId)),
      as(h(), adminB).post(clientPaths.subClients({ realmId: b }, client.clientId), { name: 'abc', desc: 'a sub', redirectUris: ['https://x.test/cb'] }),
    ]))
      expect(res.status).toBe(404);
    const row = await h().ctx.repos.clients.findByClientId(a, client.clientId);
    expect(row).toMatchObject({ description: 'a client for tests', disabled: false });
    expect(await h().ctx.repos.clients.listChildren(row!.id)).toEqual([]);
  });

  it('developers (userClient): only their own clients, in their own realm; others’ are 1004; a service account is refused 1003', async () => {
    const token = await admin();
    const realmId = await createRealm(h());
    const [alice, bob] = [await developer(h(), realmId), await developer(h(), realmId)];
    const adminMade = await addClient(h(), token, realmId);
    const mine = await as(h(), alice.token).post(OWN, clientBody({ realmId: 'master' }));
    expect(mine.body).toMatchObject({ code: 1009 });
    const made = await as(h(), alice.token).post(OWN, clientBody());
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data.client).toMatchObject({ realmId, ownerAccountId: alice.id });
    const id = made.body.data.client.clientId as string;
    const sub = await as(h(), alice.token).post(clientPaths.subClients('own', id), { name: 'abc', desc: 'a sub', redirectUris: ['https://x.test/cb'] });
    expect(sub.body.data.client).toMatchObject({ ownerAccountId: alice.id, parentClientId: id });

    const aliceList = await as(h(), alice.token).get(OWN);
    expect(aliceList.body.data.items.map((c: { clientId: string }) => c.clientId)).toEqual([id]);
    expect((await as(h(), bob.token).get(OWN)).body.data).toEqual({ items: [], total: 0 });
    for (const res of await Promise.all([
      as(h(), bob.token).get(clientPaths.one('own', id)),
      as(h(), bob.token).patch(clientPaths.one('own', id), { desc: 'bob was here' }),
      as(h(), bob.token).delete(clientPaths.one('own', id)),
      as(h(), bob.token).post(clientPaths.secret('own', id)),
      as(h(), bob.token).post(clientPaths.subClients('own', id), { name: 'abc', desc: 'a sub', redirectUris: ['https://x.test/cb'] }),
      as(h(), alice.token).get(clientPaths.one('own', adminMade.client.clientId)),
      as(h(), alice.token).delete(clientPaths.one('own', adminMade.client.clientId)),
    ]))
      expect(res.status).toBe(404);
    expect((await as(h(), alice.token).patch(clientPaths.one('own', id), { desc: 'alice changed it' })).body.data.desc).toBe('alice changed it');
    // the administrators of the realm see the developer's clients too
    const all = await as(h(), token).get(`${adminClients(realmId)}?limit=100`);
    expect(all.body.data.items.map((c: { clientId: string }) => c.clientId)).toEqual(expect.arrayContaining([id, adminMade.client.clientId]));
    // without userClient: 1003
    const plain = await createPerson(h(), { realmId });
    expect((await as(h(), await tokenFor(h(), plain)).get(OWN)).body).toMatchObject({ code: 1003, errData: { resource: 'userClient', perm: 'query' } });
    // a service account whose owner is a developer holds no clients of its own
    const owner = await createPerson(h(), { realmId });
    await bindRole(h(), owner, `dev-${realmId}`, realmId);
    const bot = await createService(h(), owner, 'devbot');
    await h().ctx.repos.serviceAccounts.saveServiceGrants(
      { realmId, accountId: bot.id, ownerId: owner.id },
      [{ permissionId: 'userClient', actions: ['query', 'add'] }],
      h().clock.now(),
    );
    const botToken = await tokenFor(h(), bot);
    expect((await as(h(), botToken).post(OWN, clientBody())).body).toMatchObject({ code: 1003 });
  });
});
