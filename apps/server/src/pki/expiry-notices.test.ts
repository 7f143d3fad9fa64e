/**
 * Certificate expiry notices (issue 13): the owner is mailed once per certificate and
 * threshold (default 30 and 7 days), also with several job runners at once; a revoked
 * certificate, or one under a revoked CA, gets none (nor a place in the realm's inventory);
 * the mail names the certificate and its end date and carries no secret.
 */
import { pkiPaths, type CaView, type CertView, type expiryInventory } from '@umbo/contracts';
import { expect, it } from 'vitest';
import type { z } from 'zod';
import { createJobRunner } from '../platform/jobs.js';
import { noticeTime } from '../notify/templates.js';
import { holder } from '../perm/roles.testkit.js';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, createRealm, randomName } from '../test/kit.js';
import { DAY_MS } from './defaults.js';
import { expiryJobs } from './expiry.jobs.js';
import { createExpiryNoticeRepo } from './expiry-notices.repo.js';
import { createExpiryNotices } from './expiry-notices.js';
import { pkiUser } from './pki.testkit.js';

const HOUR = 3_600_000;

/** A person of the realm (master unless told) holding the cert permissions, with `email` (or none). */
async function owner(h: Harness, email: string | null, realmId = 'master') {
  const u = await pkiUser(h, realmId);
  if (email) await h.dbh.db.updateTable('accounts').set({ email }).where('id', '=', u.id).execute();
  return u;
}

/** A device certificate from a managed key, ending `days` (+ an hour) from now. */
async function certEnding(h: Harness, token: string, days: number): Promise<CertView> {
  const key = await as(h, token).post(pkiPaths.keys, {
    name: `k_${randomName().slice(0, 20)}`,
    description: 'expiry test',
    algorithm: 'EC',
    strength: 'P-256',
  });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  const cn = `dev-${randomName().slice(0, 12)}`;
  const res = await as(h, token).post(pkiPaths.certs, { keyId: key.body.data.id, cnType: 'deviceId', cn, expireAtTs: h.clock.now() + days * DAY_MS + HOUR });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as CertView;
}

/** The mails the outbox kept for `to`, opened. */
async function mailsTo(h: Harness, to: string) {
  const rows = await h.ctx.repos.outbox.listOutboxMessages({ recipient: to, channel: 'mail', limit: 100, offset: 0 });
  return rows.map((r) => ({ subject: h.ctx.secrets.decrypt(r.subject), body: h.ctx.secrets.decrypt(r.body) }));
}

const run = (h: Harness) => h.ctx.services.pkiExpiry.run();

describeBothDbs('certificate expiry notices', (h) => {
  it('mails the 30-day notice once, then the 7-day notice once, naming CN, serial and date', async () => {
    const email = `${randomName()}@example.com`;
    const u = await owner(h(), email);
    const cert = await certEnding(h(), u.token, 29);

    await run(h());
    let mails = await mailsTo(h(), email);
    expect(mails).toHaveLength(1);
    await run(h());
    await run(h());
    expect(await mailsTo(h(), email)).toHaveLength(1);

    // The account never chose a language: the product default (zh-CN) is used.
    const [mail] = mails;
    const date = noticeTime('zh-CN', cert.expireAtTs);
    for (const part of [cert.cn, cert.sn, date]) {
      expect(mail!.subject + mail!.body).toContain(part);
    }
    expect(mail!.body).toContain(cert.sn);
    expect(mail!.body).not.toMatch(/PRIVATE KEY|BEGIN|password/i);

    h().clock.advance(23 * DAY_MS); // 6 days left
    await run(h());
    mails = await mailsTo(h(), email);
    expect(mails).toHaveLength(2);
    await run(h());
    expect(await mailsTo(h(), email)).toHaveLength(2);
    const states = await h().ctx.repos.pkiExpiry.list(cert.id);
    expect(states.map((s) => [s.threshold_days, s.state])).toEqual([
      [30, 'sent'],
      [7, 'sent'],
    ]);
  });

  it('sends only the 7-day notice to a certificate first seen with 6 days left, in the account language', async () => {
    const email = `${randomName()}@example.com`;
    const u = await owner(h(), email);
    await h().ctx.repos.me.saveSettings('master', u.id, JSON.stringify({ language: 'de' }), h().clock.now());
    const cert = await certEnding(h(), u.token, 6);
    await run(h());
    await run(h());
    const mails = await mailsTo(h(), email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(`Zertifikat ${cert.cn}`);
    expect(mails[0]!.body).toContain(noticeTime('de', cert.expireAtTs));
    const states = await h().ctx.repos.pkiExpiry.list(cert.id);
    expect(states.map((s) => [s.threshold_days, s.state])).toEqual([
      [30, 'skipped'],
      [7, 'sent'],
    ]);
  });

  it('sends exactly once with 50 parallel runs of two services, and once with three job runners', async () => {
    const email = `${randomName()}@example.com`;
    const u = await owner(h(), email);
    await certEnding(h(), u.token, 20);
    const ctx = h().ctx;
    // a second process: its own service and repository over the same database
    const other = createExpiryNotices({
      repo: createExpiryNoticeRepo(h().dbh.db),
      transact: (work) => h().dbh.db.transaction().execute(work),
      notify: ctx.services.notify,
      settingsOf: ctx.services.realmPolicy.settingsOf,
      preferencesOf: async () => ({
        settings: { language: 'en', theme: 'dark', color: '#1890ff', notifications: { securityEmail: true, securitySms: false } },
        language: undefined,
      }),
      siteTitle: 'umbo',
      clock: h().clock,
    });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? other.run() : run(h()))));
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(results.reduce((n, r) => n + r.queued, 0)).toBe(1);
    expect(await mailsTo(h(), email)).toHaveLength(1);

    // the real job through three runners (one lease), and again after its period: still one mail
    const email2 = `${randomName()}@example.com`;
    const u2 = await owner(h(), email2);
    await certEnding(h(), u2.token, 25);
    const runners = [1, 2, 3].map(() => createJobRunner(h().dbh.db, h().clock, expiryJobs({ notices: ctx.services.pkiExpiry })));
    await Promise.all(runners.map((r) => r.tick()));
    h().clock.advance(HOUR);
    await Promise.all(runners.map((r) => r.tick()));
    expect(await mailsTo(h(), email2)).toHaveLength(1);
  });

  it('sends nothing for a revoked certificate, nor to an owner without an email', async () => {
    const email = `${randomName()}@example.com`;
    const u = await owner(h(), email);
    const cert = await certEnding(h(), u.token, 5);
    const rev = await as(h(), u.token).post(pkiPaths.certRevoke(cert.id), { reason: 'keyCompromise' });
    expect(rev.status, JSON.stringify(rev.body)).toBe(200);
    await run(h());
    expect(await mailsTo(h(), email)).toHaveLength(0);
    expect(await h().ctx.repos.pkiExpiry.list(cert.id)).toHaveLength(0);

    const silent = await owner(h(), null);
    const cert2 = await certEnding(h(), silent.token, 5);
    await run(h());
    const states = await h().ctx.repos.pkiExpiry.list(cert2.id);
    expect(states.find((s) => s.threshold_days === 7)?.state).toBe('noEmail');
  });

  it('tells nobody of a leaf under a revoked account CA and leaves it out of the inventory; the sibling under a valid CA is told', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const [emailA, emailB] = [`${randomName()}@example.com`, `${randomName()}@example.com`];
    const [a, b] = [await owner(h(), emailA, realmId), await owner(h(), emailB, realmId)];
    // queued before its CA is revoked: the 30-day notice waits to be sent
    const queued = await certEnding(h(), a.token, 20);
    expect(await h().ctx.services.pkiExpiry.scan()).toBe(1);
    const soon = await certEnding(h(), a.token, 5);
    const sibling = await certEnding(h(), b.token, 5);
    const inventory = async () =>
      (await as(h(), admin.token).get(`${pkiPaths.realmExpiring(realmId)}?withinDays=30`)).body.data as z.infer<typeof expiryInventory>;
    expect((await inventory()).counts).toEqual({ d7: 2, d30: 3, d90: 3 });

    const caA = (await as(h(), a.token).get(pkiPaths.ca)).body.data as CaView;
    const rev = await as(h(), admin.token).post(pkiPaths.realmAccountCaRevoke(realmId, caA.id), { reason: 'keyCompromise' });
    expect(rev.status, JSON.stringify(rev.body)).toBe(200);
    await run(h());
    await run(h());

    expect(await mailsTo(h(), emailA)).toHaveLength(0);
    expect(await h().ctx.repos.pkiExpiry.list(soon.id)).toHaveLength(0);
    expect((await h().ctx.repos.pkiExpiry.list(queued.id)).map((s) => [s.threshold_days, s.state])).toEqual([[30, 'skipped']]);
    const mails = await mailsTo(h(), emailB);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject + mails[0]!.body).toContain(sibling.sn);
    expect((await h().ctx.repos.pkiExpiry.list(sibling.id)).map((s) => [s.threshold_days, s.state])).toEqual([
      [30, 'skipped'],
      [7, 'sent'],
    ]);
    const after = await inventory();
    expect(after.counts).toEqual({ d7: 1, d30: 1, d90: 1 });
    expect(after.items.map((c) => c.id)).toEqual([sibling.id]);
  });

  it("follows the realm's certExpiryNoticeDays and refuses bad values", async () => {
    const admin = await h().login();
    const path = `/api/users/realms/master/settings`;
    for (const bad of [[], [0], [366], [30, 30], [1, 2, 3, 4], ['7']]) {
      const res = await as(h(), admin).patch(path, { certExpiryNoticeDays: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.errData?.field, JSON.stringify(bad)).toMatch(/^certExpiryNoticeDays/);
    }
    const ok = await as(h(), admin).patch(path, { certExpiryNoticeDays: [60] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.certExpiryNoticeDays).toEqual([60]);
    try {
      const email = `${randomName()}@example.com`;
      const u = await owner(h(), email);
      const cert = await certEnding(h(), u.token, 45);
      await run(h());
      expect(await mailsTo(h(), email)).toHaveLength(1);
      expect((await h().ctx.repos.pkiExpiry.list(cert.id)).map((s) => s.threshold_days)).toEqual([60]);
    } finally {
      await as(h(), admin).patch(path, { certExpiryNoticeDays: [30, 7] });
    }
  });
});
