/**
 * A-16 (ASVS 7.4.2–3): password reset, the user's password change, disable, delete and an
 * administrator's "log out all" end the account's OAuth grants: every refresh token
 * invalid_grant, every access token inactive — besides the console sessions.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, createPerson, tokenFor, type TestAccount } from '../../test/kit.js';
import { introspect, makeClient, refresh, userTokens } from '../test/token.testkit.js';

describeBothDbs('A-16 account security events end OAuth grants', (h) => {
  /** A user with tokens at two clients; `act` runs the event; then everything is dead. */
  async function grantsEndWith(act: (user: TestAccount) => Promise<void>, o: { deleted?: boolean } = {}) {
    const c1 = await makeClient(h(), 'master', { refreshTokenRecreate: false });
    const c2 = await makeClient(h(), 'master');
    const user = await createPerson(h());
    const t1 = await userTokens(h(), c1, user);
    const t2 = await userTokens(h(), c2, user);
    const bystander = await createPerson(h());
    const t3 = await userTokens(h(), c1, bystander);
    await act(user);
    for (const [client, t] of [
      [c1, t1],
      [c2, t2],
    ] as const) {
      expect((await refresh(h(), client, t.refresh_token!)).body.error).toBe('invalid_grant');
      expect((await introspect(h(), client, t.access_token)).text).toBe('{"active":false}');
    }
    // another account's grants are untouched
    expect((await introspect(h(), c1, t3.access_token)).body.active).toBe(true);
    if (!o.deleted) {
      const revoked = await h().ctx.db.selectFrom('oauth_families').select(['revoked_at', 'revoke_reason']).where('account_id', '=', user.id).execute();
      expect(revoked.length).toBe(2);
      for (const f of revoked) expect(f.revoked_at).not.toBeNull();
    }
  }

  const admin = () => h().login();

  it('A-16 password reset by mail link', async () => {
    await grantsEndWith(async (user) => {
      const { code } = await h().ctx.services.mailLinks.create('master', 'reset', user.id);
      const res = await as(h()).post('/api/users/auth/reset', { realm_id: 'master', code, password: 'Another-Pass-482' });
      expect(res.status).toBe(200);
    });
  });

  it("A-16 the user's own password change", async () => {
    await grantsEndWith(async (user) => {
      const token = await tokenFor(h(), { username: user.username, password: user.password });
      const res = await as(h(), token).post('/api/users/account/password', { oldPassword: user.password, newPassword: 'Another-Pass-482' });
      expect(res.status).toBe(200);
    });
  });

  it('A-16 disabled by an administrator', async () => {
    const token = await admin();
    await grantsEndWith(async (user) => {
      expect((await as(h(), token).post(`/api/users/realms/master/accounts/${user.id}/disable`)).status).toBe(200);
    });
  });

  it('A-16 an administrator\'s "log out all"', async () => {
    const token = await admin();
    await grantsEndWith(async (user) => {
      expect((await as(h(), token).delete(`/api/users/realms/master/accounts/${user.id}/sessions`)).status).toBe(200);
    });
  });

  it('A-16 deleted by an administrator', async () => {
    const token = await admin();
    await grantsEndWith(
      async (user) => {
        expect((await as(h(), token).delete(`/api/users/realms/master/accounts/${user.id}`)).status).toBe(200);
      },
      { deleted: true },
    );
  });
});
