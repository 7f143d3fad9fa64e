/**
 * Ali Living linking end to end on both databases (issue 14): a sign-in in an `aliliving`
 * realm links the account through the local stand-in gateway (which checks the signature as
 * documented), the account's detail shows the link; the gateway down or the secret wrong never
 * changes the sign-in's answer, the failure is recorded (without the secret) and retried;
 * with `enable` off nothing is called.
 */
import { beforeEach, expect, it } from 'vitest';
import type { Harness } from '../../test/harness.js';
import { describeBothDbs } from '../../test/harness.js';
import { as, createPerson, createRealm, setRealmSettings, signIn } from '../../test/kit.js';
import { personPath } from '../../directory/person.testkit.js';
import { RETRY_MAX_MS } from './aliliving.service.js';
import { startStandIn } from './living-standin.testkit.js';

const GROUP = { type: 'aliliving', enable: true, appCloudKey: 'cloud-key', projectRes: 'a123', appKey: 'living-key' } as const;
const SECRET = 'ali-Secret-993';

// The server's configuration names the stand-in (ALILIVING_API_URL): it must listen first. Its
// clock is the suite's fake clock, as a real gateway's would be the real time umbo signs with.
let clockNow = Date.now;
const standIn = await startStandIn({
  appKey: GROUP.appCloudKey,
  appSecret: SECRET,
  projectRes: GROUP.projectRes,
  openIdAppKey: GROUP.appKey,
  now: () => clockNow(),
});
// the stand-in is on loopback: the operator's switch (README) lets the calls reach it
const ALILIVING_ENV = { ALILIVING_API_URL: standIn.url, ALILIVING_ALLOW_PRIVATE_NETWORK: 'true' };

async function aliRealm(h: Harness, group: { enable?: boolean; appCloudKey?: string } = {}, secret = SECRET): Promise<string> {
  const backend = { ...GROUP, ...group, appCloudSecret: h.ctx.secrets.encrypt(secret) };
  return createRealm(h, { backend_type: 'aliliving', backend, backend_realm_id: 'tenant-7', backend_regist_url: 'https://it.example.cn/register' });
}

async function detail(h: Harness, realmId: string, id: string) {
  const res = await as(h, await h.login()).get(personPath(realmId, id));
  expect(res.status).toBe(200);
  return res.body.data as { aliLiving?: { identityId: string | null; linkedAt: number | null; lastError: string | null; attempts: number } | null };
}

describeBothDbs(
  'Ali Living link after sign-in',
  (h) => {
    const settled = () => h().ctx.services.aliLiving.settled();
    beforeEach(() => {
      clockNow = () => h().clock.now();
    });

    it('a sign-in links the account to its Ali Living identity and the detail shows it', async () => {
      const realmId = await aliRealm(h());
      const person = await createPerson(h(), { realmId });
      const before = standIn.accepted.length;
      const res = await signIn(h(), person);
      expect(res.status).toBe(200);
      await settled();
      expect(standIn.accepted.slice(before)).toEqual(['/cloud/token', '/cloud/account/getByOpenId']);
      const link = (await detail(h(), realmId, person.id)).aliLiving;
      expect(link).toMatchObject({ identityId: standIn.identityOf(person.id), lastError: null, attempts: 1 });
      expect(link?.linkedAt).toBe(h().clock.now());

      // a linked account is not looked up again at its next sign-in
      const calls = standIn.accepted.length;
      expect((await signIn(h(), person)).status).toBe(200);
      await settled();
      expect(standIn.accepted.length).toBe(calls);
    });

    it('the gateway down: the sign-in still succeeds, the failure is recorded, the retry job links later', async () => {
      const realmId = await aliRealm(h());
      const person = await createPerson(h(), { realmId });
      await standIn.stop();
      try {
        const res = await signIn(h(), person);
        expect(res.status).toBe(200);
        expect(res.body.data.token).toEqual(expect.any(String));
        await settled();
        const failed = (await detail(h(), realmId, person.id)).aliLiving;
        expect(failed).toMatchObject({ identityId: null, linkedAt: null, attempts: 1 });
        expect(failed?.lastError).toMatch(/^\/cloud\/token: unreachable/);
        // not due yet: the job leaves it alone
        await h().ctx.services.aliLiving.retryDue();
        expect((await detail(h(), realmId, person.id)).aliLiving?.attempts).toBe(1);
      } finally {
        await standIn.restart();
      }
      h().clock.advance(RETRY_MAX_MS);
      expect(await h().ctx.services.aliLiving.retryDue()).toBeGreaterThanOrEqual(1);
      const linked = (await detail(h(), realmId, person.id)).aliLiving;
      expect(linked).toMatchObject({ identityId: standIn.identityOf(person.id), lastError: null, attempts: 2 });
    });

    it('a wrong secret: no link, the gateway refusal recorded without the secret', async () => {
      const wrong = 'wrong-Secret-4417';
      const realmId = await aliRealm(h(), {}, wrong);
      const person = await createPerson(h(), { realmId });
      const refusals = standIn.refused.length;
      expect((await signIn(h(), person)).status).toBe(200);
      await settled();
      expect(standIn.refused.slice(refusals)).toEqual(['Invalid Signature']);
      const body = await detail(h(), realmId, person.id);
      expect(body.aliLiving).toMatchObject({ identityId: null, lastError: '/cloud/token: gateway answered HTTP 400' });
      const rows = await h().dbh.db.selectFrom('aliliving_links').selectAll().where('realm_id', '=', realmId).execute();
      expect(JSON.stringify(rows)).not.toContain(wrong);
      expect(JSON.stringify(body)).not.toContain(wrong);
    });

    it('with enable off nothing is called and the detail shows no link', async () => {
      const realmId = await aliRealm(h(), { enable: false });
      const person = await createPerson(h(), { realmId });
      const seen = standIn.accepted.length + standIn.refused.length;
      expect((await signIn(h(), person)).status).toBe(200);
      await settled();
      expect(standIn.accepted.length + standIn.refused.length).toBe(seen);
      expect((await detail(h(), realmId, person.id)).aliLiving).toBeNull();
    });

    it('linking turned off while an account waits: the retry calls nothing and puts the account back', async () => {
      // a key of its own: any call for this realm would show as an 'Invalid Key' refusal
      const realmId = await aliRealm(h(), { appCloudKey: 'cloud-key-off' });
      const person = await createPerson(h(), { realmId });
      expect((await signIn(h(), person)).status).toBe(200);
      await settled();
      expect((await detail(h(), realmId, person.id)).aliLiving?.attempts).toBe(1);
      const backend = { ...GROUP, appCloudKey: 'cloud-key-off', enable: false, appCloudSecret: h().ctx.secrets.encrypt(SECRET) };
      await setRealmSettings(h(), realmId, { backend_type: 'aliliving', backend });
      h().clock.advance(RETRY_MAX_MS);
      const invalidKeys = () => standIn.refused.filter((r) => r === 'Invalid Key').length;
      const seen = invalidKeys();
      await h().ctx.services.aliLiving.retryDue();
      expect(invalidKeys()).toBe(seen);
      const parked = await h().dbh.db.selectFrom('aliliving_links').selectAll().where('account_id', '=', person.id).executeTakeFirstOrThrow();
      expect(parked).toMatchObject({ identity_id: null, last_error: 'Ali Living linking is off for this realm' });
      expect(Number(parked.attempts)).toBe(1);
      expect(Number(parked.next_try_at)).toBe(h().clock.now() + RETRY_MAX_MS);
    });

    it('outside an aliliving realm the detail has no Ali Living field and nothing is called', async () => {
      const realmId = await createRealm(h());
      const person = await createPerson(h(), { realmId });
      const seen = standIn.accepted.length + standIn.refused.length;
      expect((await signIn(h(), person)).status).toBe(200);
      await settled();
      expect(standIn.accepted.length + standIn.refused.length).toBe(seen);
      expect((await detail(h(), realmId, person.id)).aliLiving).toBeUndefined();
    });
  },
  ALILIVING_ENV,
);
