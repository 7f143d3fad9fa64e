/**
 * Issue 14: the upstream's discovery document (and with it the JWKS, which openid-client keeps
 * per configuration) is fetched once per realm and settings for 5 minutes, not on every start
 * and callback. A settings change, the 5 minutes passing or a failed discovery fetch again;
 * an upstream key rotation still signs in. Against the hand-made upstream of the testkit,
 * over HTTP to a listening umbo, on SQLite and PostgreSQL.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../oauth/interop/interop.testkit.js';
import type { StoredOAuth } from '../../realms/realm-settings.backend.js';
import { createHarness, DB_TARGETS, type Harness } from '../../test/harness.js';
import { as, createRealm, setRealmSettings } from '../../test/kit.js';
import { UPSTREAM_DEFAULTS } from './defaults.js';
import { Browser, startFakeIdp, type FakeIdp } from './upstream.testkit.js';

const DISCOVERY = '/.well-known/openid-configuration';

function oauthOf(h: Harness, fake: FakeIdp): StoredOAuth {
  return {
    isOIDC: true,
    clientID: fake.clientId,
    // sealed anew each time: the same secret saved again is a settings change too
    clientSecret: h.ctx.secrets.encrypt('fake-Secret-1'),
    loginEndpoint: 'https://unused.example.com/authorize',
    tokenEndpoint: 'https://unused.example.com/token',
    oidcWellknowEndpoint: fake.wellKnown,
    accessTokenScope: 'openid',
    redirectURIOverwrite: false,
    redirectURI: '',
    loginURI: '',
  };
}

const prevAllow = process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;

for (const target of DB_TARGETS) {
  describe(`upstream discovery cache [${target.dialect}]`, () => {
    let h: Harness & { dispose(): Promise<void> };
    let fake: FakeIdp;
    let base = '';
    const count = (path: string) => fake.hits.filter((p) => p === path).length;

    beforeAll(async () => {
      // the upstream listens on 127.0.0.1: the operator's switch for private targets
      process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      h = await createHarness(target, { PUBLIC_URL: base });
      // openid-client checks iat/exp against the real clock
      h.clock.now = () => Date.now();
      await h.app.listen({ port, host: '127.0.0.1' });
      fake = await startFakeIdp();
    });
    afterAll(async () => {
      await fake?.close();
      await h?.dispose();
      if (prevAllow === undefined) delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
      else process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = prevAllow;
    });

    /** start → (the upstream answers) → our callback → exchange: the console URL's ticket or error code. */
    async function signIn(realmId: string): Promise<{ ok: boolean; error: string | null }> {
      const browser = new Browser();
      const started = await browser.get(`${base}/api/federation/${realmId}/oidc/start`);
      const auth = new URL(started.location!);
      const error = auth.searchParams.get('upstream_error');
      if (error) return { ok: false, error };
      fake.token = { flaw: 'none', nonce: auth.searchParams.get('nonce')!, sub: `s-${crypto.randomBytes(4).toString('hex')}` };
      const code = `c-${crypto.randomBytes(4).toString('hex')}`;
      const back = await browser.get(`${base}/api/federation/${realmId}/oidc/callback?code=${code}&state=${auth.searchParams.get('state')}`);
      const page = new URL(back.location!);
      const ticket = page.searchParams.get('upstream_ticket');
      if (!ticket) return { ok: false, error: page.searchParams.get('upstream_error') };
      const res = await as(h).post('/api/federation/oidc/exchange', { ticket });
      return { ok: res.status === 200 && typeof res.body.data?.token === 'string', error: null };
    }

    it('two sign-ins fetch discovery and the JWKS once; a settings change fetches again', async () => {
      const realmId = await createRealm(h, { oauth: oauthOf(h, fake) });
      const [d0, j0] = [count(DISCOVERY), count('/jwks')];
      expect(await signIn(realmId)).toEqual({ ok: true, error: null });
      expect(await signIn(realmId)).toEqual({ ok: true, error: null });
      expect(count(DISCOVERY) - d0).toBe(1);
      expect(count('/jwks') - j0).toBe(1);

      await setRealmSettings(h, realmId, { oauth: oauthOf(h, fake) });
      expect(await signIn(realmId)).toEqual({ ok: true, error: null });
      expect(count(DISCOVERY) - d0).toBe(2);
    });

    it('after 5 minutes the configuration is discovered again', async () => {
      const realmId = await createRealm(h, { oauth: oauthOf(h, fake) });
      const d0 = count(DISCOVERY);
      expect((await signIn(realmId)).ok).toBe(true);
      const later = Date.now() + UPSTREAM_DEFAULTS.discoveryCacheMs;
      h.clock.now = () => later;
      try {
        // only our cache's clock moves: start discovers again; openid-client still checks against the real time
        await new Browser().get(`${base}/api/federation/${realmId}/oidc/start`);
      } finally {
        h.clock.now = () => Date.now();
      }
      expect(count(DISCOVERY) - d0).toBe(2);
    });

    it('a failed discovery (1141) is not kept: the next start asks the upstream again and signs in', async () => {
      const realmId = await createRealm(h, { oauth: oauthOf(h, fake) });
      const d0 = count(DISCOVERY);
      fake.discoveryDown = true;
      try {
        expect(await signIn(realmId)).toEqual({ ok: false, error: '1141' });
      } finally {
        fake.discoveryDown = false;
      }
      expect(await signIn(realmId)).toEqual({ ok: true, error: null });
      expect(count(DISCOVERY) - d0).toBe(2);
    });

    it('an upstream key rotation: the sign-in the cached JWKS cannot verify is refused (1140), the next fetches the new JWKS and signs in', async () => {
      const realmId = await createRealm(h, { oauth: oauthOf(h, fake) });
      expect((await signIn(realmId)).ok).toBe(true);
      const j0 = count('/jwks');
      await fake.rotate();
      // oauth4webapi refetches a JWKS without the token's kid only when its copy is 60 s old; ours is fresh
      expect(await signIn(realmId)).toEqual({ ok: false, error: '1140' });
      expect(await signIn(realmId)).toEqual({ ok: true, error: null });
      expect(count('/jwks') - j0).toBe(1);
    });
  });
}
