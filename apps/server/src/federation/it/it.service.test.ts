/**
 * The other IT-interface endpoints through the federation service against the reference
 * backend (issue 14): code sign-in with and without doAuthNeedCountryCode, registration
 * (1205 for a known user), lookup of one user (getUsersInfo) and many (getUserInfoListByUcUids).
 */
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import type { FlowSettings } from '../../realms/realm-policy.js';
import { accountsOf, itGroup, itRealm, startReference, type RefBackend } from './it.testkit.js';

let ref: RefBackend;
beforeAll(async () => {
  ref = await startReference();
});
afterAll(() => ref.close());

const uniq = () => Math.random().toString(36).slice(2, 10);
const mobile = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

describeBothDbs('IT-interface codes, registration and lookups', (h) => {
  const fed = () => h().ctx.services.itFederation;
  const settingsOf = (realmId: string): Promise<FlowSettings> => h().ctx.services.realmPolicy.settingsOf(realmId);

  for (const doAuthNeedCountryCode of [false, true]) {
    it(`code sign-in (doAuthNeedCountryCode ${doAuthNeedCountryCode}): the backend sends and checks the code`, async () => {
      const realmId = await itRealm(h(), itGroup('ecogloble', ref.port, { doAuthNeedCountryCode }));
      const national = mobile();
      const phone = { e164: `+86${national}`, country: '86' };
      const user = await ref.addUser({ username: `sms${uniq()}`, password: 'Backend-Pass-1', phone: phone.e164 });
      const settings = await settingsOf(realmId);
      const serialNo = await fed().sendCode(realmId, settings, phone, 'login', '10.9.0.1');
      const sent = (await ref.requests()).at(-1)!.fields;
      expect(sent).toEqual(
        doAuthNeedCountryCode
          ? { realm: 'tenant-1', phone: national, countryCode: '86', purpose: 'login' }
          : { realm: 'tenant-1', phone: phone.e164, purpose: 'login' },
      );
      const { code } = await ref.lastCode(phone.e164);
      const wrong = code === '000000' ? '000001' : '000000';
      expect(await fed().codeSignIn(realmId, settings, phone, wrong, serialNo)).toBeUndefined();
      const account = await fed().codeSignIn(realmId, settings, phone, code, serialNo);
      expect(account).toMatchObject({ id: user.userId, phone: phone.e164, password_hash: null });
    });
  }

  it('registration goes to the backend; a known user is 1205 and no second account', async () => {
    const realmId = await itRealm(h(), itGroup('default', ref.port));
    const settings = await settingsOf(realmId);
    const username = `reg${uniq()}`;
    const account = await fed().register(realmId, settings, { username, password: 'Backend-Pass-1', email: `${username}@example.test` });
    expect(account).toMatchObject({ realm_id: realmId, username, email: `${username}@example.test`, password_hash: null });
    await expect(fed().register(realmId, settings, { username, password: 'Backend-Pass-1' })).rejects.toMatchObject({ def: { code: 1205 } });
    expect((await accountsOf(h(), realmId)).length).toBe(1);
  });

  it('lookup: one user (ecogloble, getUsersInfo) and many ids at once (default, getUserInfoListByUcUids)', async () => {
    for (const type of ['ecogloble', 'default'] as const) {
      const realmId = await itRealm(h(), itGroup(type, ref.port));
      const settings = await settingsOf(realmId);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await fed().register(realmId, settings, { username: `look${uniq()}`, password: 'Backend-Pass-1' })).id);
      const found = await fed().lookup(realmId, settings, ids);
      expect(found.map((u) => u.userId).sort()).toEqual([...ids].sort());
      const paths = (await ref.requests()).slice(-3).map((r) => r.path);
      expect(paths).toEqual(type === 'default' ? ['/it/register', '/it/register', '/it/users'] : ['/it/user', '/it/user', '/it/user']);
    }
  });
});
