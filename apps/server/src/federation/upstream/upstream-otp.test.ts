/**
 * Issue 14, upstream sign-in of an account that has a one-time password, on SQLite and
 * PostgreSQL: the exchange asks for the OTP as code sign-in does (auth/flows/sign-in.ts).
 * 1503 leaves the hand-over ticket usable; a wrong OTP is refused (1502), counted on the
 * account's lock (shared with the password form, A-31) and costs the ticket tries; the right
 * one signs in and spends the ticket; the ticket still dies after its 2 minutes.
 * The upstream is the hand-made one of upstream.testkit.ts, answering correctly.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../oauth/interop/interop.testkit.js';
import { createHarness, DB_TARGETS, type Harness } from '../../test/harness.js';
import { as, codeAt, createPerson, createRealm, enableOtp, newRealmId, randomEmail, tokenFor, type TestAccount } from '../../test/kit.js';
import { Browser, startFakeIdp, type FakeIdp } from './upstream.testkit.js';

const WRONG = '000000';
const prevAllow = process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;

for (const target of DB_TARGETS) {
  describe(`upstream sign-in with a one-time password [${target.dialect}]`, () => {
    let h: Harness & { dispose(): Promise<void> };
    let fake: FakeIdp;
    let base = '';
    let realmId = '';
    let person: TestAccount;
    let secret = '';
    let recoveryCodes: string[] = [];
    /** the clock umbo reads: real time (openid-client checks iat/exp), shifted by a test */
    let shift = 0;

    beforeAll(async () => {
      // the upstream listens on 127.0.0.1: the operator's switch for private targets
      process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      h = await createHarness(target, { PUBLIC_URL: base });
      h.clock.now = () => Date.now() + shift;
      await h.app.listen({ port, host: '127.0.0.1' });
      fake = await startFakeIdp();
      realmId = newRealmId();
      await createRealm(
        h,
        {
          oauth: {
            isOIDC: true,
            clientID: fake.clientId,
            clientSecret: h.ctx.secrets.encrypt('fake-Secret-1'),
            loginEndpoint: 'https://unused.example.com/authorize',
            tokenEndpoint: 'https://unused.example.com/token',
            oidcWellknowEndpoint: fake.wellKnown,
            accessTokenScope: 'openid email',
            redirectURIOverwrite: false,
            redirectURI: '',
            loginURI: '',
            displayName: 'Corp SSO',
            // the upstream identity finds the local account by its verified address
            linkVerifiedEmail: true,
          },
        },
        realmId,
      );
      person = await createPerson(h, { realmId, email: randomEmail() });
      ({ secret, recoveryCodes } = await enableOtp(h, await tokenFor(h, person), person.password));
    });

    afterAll(async () => {
      await fake?.close();
      await h?.dispose();
      if (prevAllow === undefined) delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
      else process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = prevAllow;
    });

    /** start → (the upstream) → callback: the hand-over ticket the sign-in page receives. */
    async function ticket(): Promise<string> {
      const browser = new Browser();
      const auth = new URL((await browser.get(`${base}/api/federation/${realmId}/oidc/start`)).location!);
      fake.token = { flaw: 'none', nonce: auth.searchParams.get('nonce')!, sub: 'otp-user', email: person.row.email!, email_verified: true };
      const code = `c-${crypto.randomBytes(4).toString('hex')}`;
      const back = await browser.get(`${base}/api/federation/${realmId}/oidc/callback?code=${code}&state=${auth.searchParams.get('state')}`);
      const t = new URL(back.location!).searchParams.get('upstream_ticket');
      if (!t) throw new Error(`no ticket: ${back.location}`);
      return t;
    }

    const exchange = (t: string, otp?: string) => as(h).post('/api/federation/oidc/exchange', otp === undefined ? { ticket: t } : { ticket: t, otp });

    it('A-31 1503 keeps the ticket; wrong OTPs are refused (1502), counted on the account lock and spend the ticket; the right one signs in once', async () => {
      const first = await ticket();
      // no OTP yet: asked for, nothing guessed, the ticket stays usable
      for (let i = 0; i < 2; i++) expect((await exchange(first)).body).toMatchObject({ result: 'fail', code: 1503, errData: { username: person.username } });
      // three wrong OTPs: each refused; the third spends the ticket, so even the right OTP is too late for it
      for (let i = 0; i < 3; i++) {
        const wrong = await exchange(first, WRONG);
        expect(wrong.status).not.toBe(200);
        expect(wrong.body.code).toBe(1502);
      }
      expect((await exchange(first, codeAt(h, secret, 1))).body).toMatchObject({ result: 'fail', code: 4006 });

      // the account's lock counted them: the fourth wrong guess (a new ticket) brings a wait
      const second = await ticket();
      const fourth = await exchange(second, WRONG);
      expect(fourth.body).toMatchObject({ code: 1502, errData: { locked: true } });
      const waitS = Number(fourth.body.errData!.retryAfter);
      expect(waitS).toBeGreaterThanOrEqual(1);
      // locked: the right OTP is refused too, without spending the ticket
      expect((await exchange(second, codeAt(h, secret, 1))).body).toMatchObject({ code: 1502, errData: { locked: true } });
      await new Promise((r) => setTimeout(r, waitS * 1000 + 200));

      const ok = await exchange(second, codeAt(h, secret, 1));
      expect(ok.status).toBe(200);
      expect(ok.body.data.userId).toBe(person.id);
      expect((await as(h, ok.body.data.token as string).get('/api/users/account')).status).toBe(200);
      // single use once completed
      expect((await exchange(second, codeAt(h, secret, 1))).body).toMatchObject({ result: 'fail', code: 4006 });
      expect((await exchange(second)).body).toMatchObject({ result: 'fail', code: 4006 });
    });

    it('A-47 the ticket still dies 2 minutes after the callback, OTP step or not', async () => {
      const t = await ticket();
      expect((await exchange(t)).body.code).toBe(1503);
      shift = 120_001;
      try {
        expect((await exchange(t, codeAt(h, secret, 1))).body).toMatchObject({ result: 'fail', code: 4006 });
      } finally {
        shift = 0;
      }
    });

    it('a recovery code answers the OTP step too (once)', async () => {
      const res = await exchange(await ticket(), recoveryCodes[0]);
      expect(res.status).toBe(200);
      expect(res.body.data.userId).toBe(person.id);
      expect((await exchange(await ticket(), recoveryCodes[0])).body.code).toBe(1502);
    });
  });
}
