/**
 * Realm export and import over HTTP on both databases (issue 11): a round trip into a new
 * realm id keeps settings, secrets (re-sealed, usable), roles, accounts and their passwords;
 * the dry run reports and writes nothing; a secret moved in the file is refused; a file from
 * another installation asks for its secrets again; an import is all-or-nothing.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, createPerson, createService, newRealmId, signIn } from '../test/kit.js';
import { apiRealm, auditRows, BACKEND_EXTRAS, BACKENDS, dataUrl, holder, OAUTH, pngBytes, rawRealm, SECRET_VALUES, settingsUrl } from './realms.testkit.js';

const importUrl = (dryRun = false) => `/api/users/realms/import${dryRun ? '?dryRun=1' : ''}`;
const mail = { host: 'smtp.example.com', port: 587, secure: false, user: 'mailer', password: 'Mail-Secret-995', from: 'no-reply@example.com' };

describeBothDbs('realm export / import', (h) => {
  const admin = () => h().login();
  const counts = async () => {
    const db = h().dbh.db;
    const n = async (t: 'realms' | 'accounts' | 'roles' | 'audit_events') =>
      Number(
        (
          await db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { realms: await n('realms'), accounts: await n('accounts'), roles: await n('roles'), audit: await n('audit_events') };
  };

  /** A realm with every kind of content: backend, OAuth, mail (three secrets), logo, a role, a person and a service account. */
  async function fullRealm(token: string) {
    const id = await apiRealm(h(), token, { settings: { backend: BACKENDS.ecogloble, ...BACKEND_EXTRAS, oauth: OAUTH, email: mail, needActive: false } });
    await as(h(), token).put(`/api/users/realms/${id}/branding/logo`, { dataUrl: dataUrl(pngBytes(900)) });
    const role = await as(h(), token).post(`/api/perm/realms/${id}/roles`, {
      name: 'operators',
      description: 'run the fleet',
      permissions: [{ permissionId: 'person', actions: ['query', 'get'] }],
    });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    const owner = await createPerson(h(), { realmId: id, email: `${id}@example.com` });
    await createService(h(), owner, 'robot7');
    return { id, owner };
  }

  it('export carries no usable secret; round trip into a new realm id keeps settings, secrets, logo, roles, accounts and passwords', async () => {
    const token = await admin();
    const { id, owner } = await fullRealm(token);
    // the service account's "resources" and description travel with it
    const robot = (await h().ctx.repos.accounts.findAccountByUsername(id, `${owner.username}/robot7`))!;
    const key = { realmId: id, accountId: robot.id, ownerId: owner.id };
    await h().ctx.repos.serviceAccounts.saveServiceProfile(key, { description: 'arm controller' }, h().clock.now());
    await h().ctx.repos.serviceAccounts.saveServiceGrants(key, [{ permissionId: 'person', actions: ['query'] }], h().clock.now());
    const exported = await as(h(), token).get(`/api/users/realms/${id}/export?accounts=1`);
    expect(exported.status).toBe(200);
    const doc = exported.body.data;
    for (const secret of [...SECRET_VALUES, mail.password]) expect(exported.text).not.toContain(secret);
    expect(doc.settings.email.password).toEqual({ sealed: expect.any(String) });
    expect(doc.settings.logo_img_url).toMatch(/^data:image\/png;base64,/);
    expect(doc.roles.map((r: { name: string }) => r.name)).toEqual(['operators']);
    expect(doc.accounts).toHaveLength(2);

    const target = newRealmId();
    const res = await as(h(), token).post(importUrl(), { targetRealmId: target, document: doc });
    expect(res.body.data).toEqual({
      dryRun: false,
      realmId: target,
      realm: 'create',
      roles: { create: ['operators'], replace: [] },
      accounts: { create: 2, replace: 0 },
      secretsToEnterAgain: [],
    });
    const [a, b] = await Promise.all([as(h(), token).get(settingsUrl(id)), as(h(), token).get(settingsUrl(target))]);
    const { realmId: _a, logo_img_url: _la, ...source } = a.body.data;
    const { realmId: _b, logo_img_url: logo, ...copy } = b.body.data;
    expect(copy).toEqual(source);
    expect(logo).toBe(doc.settings.logo_img_url);
    expect(copy.email.hasPassword && copy.backend.hasAppSercet && copy.oauth.hasClientSecret).toBe(true);
    // re-sealed: another sealed text, the same secret
    const stored = (rid: string) => rawRealm(h(), rid).then((r) => JSON.parse(r!.settings) as { email: { password: string } });
    const [src, dst] = await Promise.all([stored(id), stored(target)]);
    expect(dst.email.password).not.toBe(src.email.password);
    expect(h().ctx.secrets.decrypt(dst.email.password)).toBe(mail.password);
    // the service account signs in to the new realm with its password (its own, even in a realm whose persons live behind an IT backend)
    expect((await signIn(h(), { username: `${owner.username}/robot7`, password: 'Service-Pass-93', realmId: target })).status).toBe(200);
    // the person's password travelled too: with the IT backend turned off (issue 14 sends persons' passwords there), it signs in
    const off = await as(h(), token).patch(settingsUrl(target), { backend_type: 'default', backend: null });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await signIn(h(), { username: owner.username, password: owner.password, realmId: target })).status).toBe(200);
    const copied = (await h().ctx.repos.accounts.findAccountByUsername(target, `${owner.username}/robot7`))!;
    expect(await h().ctx.repos.serviceAccounts.findServiceProfile(target, copied.id)).toEqual({
      description: 'arm controller',
      grants: [{ permissionId: 'person', actions: ['query'] }],
    });
    expect((await auditRows(h(), target)).map((e) => e.action)).toContain('realm.import');
  });

  it('dry run reports creates and replaces and writes nothing; a second real import replaces', async () => {
    const token = await admin();
    const { id } = await fullRealm(token);
    const doc = (await as(h(), token).get(`/api/users/realms/${id}/export?accounts=1`)).body.data;
    const before = await counts();
    const dry = await as(h(), token).post(importUrl(true), { document: doc });
    expect(dry.body.data).toMatchObject({
      dryRun: true,
      realmId: id,
      realm: 'replace',
      roles: { create: [], replace: ['operators'] },
      accounts: { create: 0, replace: 2 },
    });
    const newId = newRealmId();
    const dryNew = await as(h(), token).post(importUrl(true), { targetRealmId: newId, document: doc });
    expect(dryNew.body.data).toMatchObject({ dryRun: true, realm: 'create', accounts: { create: 2, replace: 0 } });
    expect(await counts()).toEqual(before);
    expect(await rawRealm(h(), newId)).toBeUndefined();
  });

  it('a secret moved to another destination in the file is refused (1035) and nothing is written', async () => {
    const token = await admin();
    const { id } = await fullRealm(token);
    const doc = (await as(h(), token).get(`/api/users/realms/${id}/export`)).body.data;
    doc.settings.email.host = 'collector.example.net';
    const before = await counts();
    const res = await as(h(), token).post(importUrl(), { targetRealmId: newRealmId(), document: doc });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1035, errData: { field: 'settings.email.password' } });
    expect(await counts()).toEqual(before);
  });

  it('a file from another installation: the secrets it carries are listed to enter again and taken in `secrets`', async () => {
    const token = await admin();
    const { id } = await fullRealm(token);
    const doc = (await as(h(), token).get(`/api/users/realms/${id}/export`)).body.data;
    // sealed under a key this installation does not have
    doc.settings.email.password = { sealed: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA' };
    const target = newRealmId();
    const dry = await as(h(), token).post(importUrl(true), { targetRealmId: target, document: doc });
    expect(dry.body.data.secretsToEnterAgain).toEqual(['email.password']);
    const res = await as(h(), token).post(importUrl(), { targetRealmId: target, document: doc, secrets: { 'email.password': 'Typed-Again-1' } });
    expect(res.status).toBe(200);
    const stored = JSON.parse((await rawRealm(h(), target))!.settings) as { email: { password: string } };
    expect(h().ctx.secrets.decrypt(stored.email.password)).toBe('Typed-Again-1');
  });

  it('all or nothing: an account whose email is taken in the target stops the whole import', async () => {
    const token = await admin();
    const { id, owner } = await fullRealm(token);
    const doc = (await as(h(), token).get(`/api/users/realms/${id}/export?accounts=1`)).body.data;
    const target = await apiRealm(h(), token);
    await createPerson(h(), { realmId: target, email: owner.row.email! });
    const before = await counts();
    const beforeRow = await rawRealm(h(), target);
    const res = await as(h(), token).post(importUrl(), { targetRealmId: target, document: doc });
    expect(res.body).toMatchObject({ code: 1035, errData: { field: 'accounts' } });
    expect(await counts()).toEqual(before);
    expect(await rawRealm(h(), target)).toEqual(beforeRow);
  });

  it('who: a realm-admin may export and re-import their realm but not create one, nor export accounts of another realm', async () => {
    const token = await admin();
    const a = await apiRealm(h(), token);
    const b = await apiRealm(h(), token);
    const { token: aAdmin } = await holder(h(), a, 'realm-admin');
    const doc = (await as(h(), aAdmin).get(`/api/users/realms/${a}/export?accounts=1`)).body.data;
    expect((await as(h(), aAdmin).post(importUrl(), { document: doc })).status).toBe(200);
    const asNew = await as(h(), aAdmin).post(importUrl(), { targetRealmId: newRealmId(), document: doc });
    expect(asNew.body).toMatchObject({ code: 1003, errData: { perm: 'add' } });
    const intoB = await as(h(), aAdmin).post(importUrl(), { targetRealmId: b, document: doc });
    expect(intoB.body).toMatchObject({ code: 1003, errData: { perm: 'import' } });
    expect((await as(h(), aAdmin).get(`/api/users/realms/${b}/export`)).body.code).toBe(1003);
  });
});
