/**
 * The realm settings the sign-in flows read are kept in memory per instance (realm-policy.ts)
 * and dropped when the auth epoch moves — realm edits bump it (migration 0031). A change
 * committed anywhere (here: a plain UPDATE, as another instance's would arrive) holds at the next
 * request; until then sign-ins reuse the settings instead of reading the row again.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { createPerson, createRealm, signIn } from '../test/kit.js';
import { readRealmSettings } from './realm-settings.js';

describeBothDbs('realm settings kept per instance', (h) => {
  const policy = () => h().ctx.services.realmPolicy;

  async function rewrite(realmId: string, change: (s: ReturnType<typeof readRealmSettings>) => void): Promise<void> {
    const { db } = h().dbh;
    const row = await db.selectFrom('realms').select('settings').where('id', '=', realmId).executeTakeFirstOrThrow();
    const settings = readRealmSettings(row.settings);
    change(settings);
    await db
      .updateTable('realms')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', realmId)
      .execute();
  }

  it('a second sign-in reads the realm from memory, not the database', async () => {
    const realmId = await createRealm(h(), { captchaPolicy: 'after_failures', needActive: false });
    const alice = await createPerson(h(), { realmId });
    expect((await signIn(h(), alice)).status).toBe(200);
    const before = policy().stats();
    expect((await signIn(h(), alice)).status).toBe(200);
    const after = policy().stats();
    expect(after.misses).toBe(before.misses);
    expect(after.hits).toBeGreaterThan(before.hits);
  });

  it('password sign-in switched off by another writer is refused (1014) at the very next attempt', async () => {
    const realmId = await createRealm(h(), { captchaPolicy: 'after_failures', needActive: false });
    const bob = await createPerson(h(), { realmId });
    expect((await signIn(h(), bob)).status).toBe(200);
    await rewrite(realmId, (s) => void (s.backend_support_login_method = ['sms']));
    const refused = await signIn(h(), bob);
    expect(refused.body.code).toBe(1014);
    await rewrite(realmId, (s) => void (s.backend_support_login_method = ['password']));
    expect((await signIn(h(), bob)).status).toBe(200);
  });

  it('a deleted realm is unknown at once (1004), and the settings handed out cannot be changed by a caller', async () => {
    const realmId = await createRealm(h(), { captchaPolicy: 'after_failures' });
    const settings = await policy().settingsOf(realmId);
    expect(() => settings.backend_support_login_method.push('x')).toThrow(TypeError);
    expect((await policy().settingsOf(realmId)).backend_support_login_method).not.toContain('x');
    await h().dbh.db.deleteFrom('realms').where('id', '=', realmId).execute();
    await expect(policy().settingsOf(realmId)).rejects.toMatchObject({ def: { code: 1004 } });
  });
});
