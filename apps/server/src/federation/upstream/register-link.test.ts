/**
 * Issue 14: registration in a realm whose accounts live in an IT-interface backend happens
 * at the backend. The sign-in page's public options carry the realm's backend_regist_url as
 * `registUrl` for such a realm, so "Register an account" leads there; every other realm has
 * none (its accounts are umbo's, or only reported elsewhere), so the page keeps umbo's own.
 * Set through the administration API, as an operator would.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as } from '../../test/kit.js';
import { apiRealm, BACKEND_EXTRAS, BACKENDS, settingsUrl } from '../../realms/realms.testkit.js';

const options = async (h: Parameters<typeof as>[0], realmId: string) => (await as(h).get(`/api/users/auth/options?realm_id=${realmId}`)).body.data;

describeBothDbs('the register link of a realm behind an IT-interface backend (issue 14)', (h) => {
  it('ecogloble and default with a backend group: registUrl is the realm backend_regist_url, and follows its changes', async () => {
    const token = await h().login();
    for (const backend of [BACKENDS.ecogloble, BACKENDS.default]) {
      const realm = await apiRealm(h(), token, { settings: { backend, ...BACKEND_EXTRAS } });
      expect((await options(h(), realm)).registUrl, backend.type).toBe(BACKEND_EXTRAS.backend_regist_url);
      const patched = await as(h(), token).patch(settingsUrl(realm), { backend_regist_url: 'http://register.example.org/join' });
      expect(patched.status).toBe(200);
      expect((await options(h(), realm)).registUrl, backend.type).toBe('http://register.example.org/join');
    }
  });

  it('no registUrl where umbo keeps the accounts: no backend (even with the URL set), bigdata, ali living', async () => {
    const token = await h().login();
    const plain = await apiRealm(h(), token, { settings: { backend_regist_url: 'https://it.example.cn/register' } });
    const bigdata = await apiRealm(h(), token, { settings: { backend: BACKENDS.bigdata, ...BACKEND_EXTRAS } });
    const ali = await apiRealm(h(), token, { settings: { backend: BACKENDS.aliliving, ...BACKEND_EXTRAS } });
    for (const realm of [plain, bigdata, ali, 'master']) {
      const got = await options(h(), realm);
      expect(got.realmId).toBe(realm);
      expect(got).not.toHaveProperty('registUrl');
    }
  });
});
