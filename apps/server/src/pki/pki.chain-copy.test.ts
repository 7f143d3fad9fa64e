/**
 * Issuance signs from this process's copy of the CA chain (chain.ts) on SQLite and PostgreSQL:
 * a change another instance made — simulated here by writing the database behind the
 * process's back — is seen when the certificate is stored, and the request is answered as a
 * fresh read would answer it: a revoked account CA replaced by a new one, a revoked
 * intermediate refusing (1112), a shortened maximum period refusing (1106). Nothing is stored
 * under a chain that was no longer current.
 */
import { pkiPaths, type CaView } from '@umbo/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { issueFromCsr, makeCsr, pkiUser, tmpDir } from './pki.testkit.js';

const DAY = 86_400_000;

describeBothDbs('pki chain copy', (h) => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir();
  });

  /** A user whose account CA exists and whose chain this process has read (two issuances). */
  async function warmUser(h: Harness) {
    const realmId = await createRealm(h);
    const u = await pkiUser(h, realmId);
    const csr = makeCsr(dir, 'ec256', 'warm').csrPem;
    await issueFromCsr(h, u.token, csr, 'warm-1');
    await issueFromCsr(h, u.token, csr, 'warm-2');
    const ca = (await as(h, u.token).get(pkiPaths.ca)).body.data as CaView;
    return { realmId, u, csr, ca };
  }

  const revokeCertOfCa = (h: Harness, caId: string) =>
    h.dbh.db
      .updateTable('pki_certs')
      .set({ revoked_at: h.clock.now(), revoke_reason: 'keyCompromise' })
      .where('id', '=', h.dbh.db.selectFrom('pki_cas').select('cert_id').where('id', '=', caId))
      .execute();

  const certsOf = async (h: Harness, accountId: string) =>
    (await h.dbh.db.selectFrom('pki_certs').select(['cn', 'ca_id']).where('account_id', '=', accountId).where('type', '=', 'device').execute()).sort((a, b) =>
      a.cn.localeCompare(b.cn),
    );

  it('an account CA revoked elsewhere: the next issuance is signed by its replacement, never by the revoked key', async () => {
    const { u, csr, ca } = await warmUser(h());
    await revokeCertOfCa(h(), ca.id);
    const next = await issueFromCsr(h(), u.token, csr, 'after-revoke');
    const now = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    expect(now.id).not.toBe(ca.id);
    expect(next.issuer).toBe(now.subject);
    expect((await certsOf(h(), u.id)).find((c) => c.cn === 'after-revoke')?.ca_id).toBe(now.id);
  });

  it('a realm intermediate revoked elsewhere: issuance refused (1112), nothing stored', async () => {
    const { u, csr, ca } = await warmUser(h());
    const caRow = await h().dbh.db.selectFrom('pki_cas').select('parent_id').where('id', '=', ca.id).executeTakeFirstOrThrow();
    const before = await certsOf(h(), u.id);
    await revokeCertOfCa(h(), caRow.parent_id!);
    const res = await as(h(), u.token).post(pkiPaths.certs, { csrPem: csr, cnType: 'deviceId', cn: 'under-revoked' });
    expect(res.body).toMatchObject({ code: 1112 });
    expect(await certsOf(h(), u.id)).toEqual(before);
    const audit = await h().dbh.db.selectFrom('audit_events').select('id').where('target_name', '=', 'under-revoked').execute();
    expect(audit).toEqual([]);
  });

  it('a maximum period shortened elsewhere: a period only the old maximum allowed is refused (1106)', async () => {
    const { u, csr, ca } = await warmUser(h());
    const now = h().clock.now();
    const body = { csrPem: csr, cnType: 'deviceId', cn: 'long', notBeforeTs: now, expireAtTs: now + 60 * DAY };
    await h().dbh.db.updateTable('pki_cas').set({ max_issue_days: 30, default_issue_days: 30 }).where('id', '=', ca.id).execute();
    expect((await as(h(), u.token).post(pkiPaths.certs, body)).body).toMatchObject({ code: 1106 });
    expect((await certsOf(h(), u.id)).map((c) => c.cn)).not.toContain('long');
    // within the new maximum: issued
    await issueFromCsr(h(), u.token, csr, 'short', { notBeforeTs: now, expireAtTs: now + 20 * DAY });
  });

  it('an account CA renewed elsewhere: issuance goes on under the same CA id and key', async () => {
    const { u, csr, ca } = await warmUser(h());
    // what a renewal on another instance leaves: a new current certificate row of the CA
    const current = await h().dbh.db.selectFrom('pki_certs').selectAll().where('subject_ca_id', '=', ca.id).executeTakeFirstOrThrow();
    const renewedId = `${current.id.slice(0, 40)}r`;
    await h()
      .dbh.db.insertInto('pki_certs')
      .values({ ...current, id: renewedId, sn: `${current.sn}1`, fingerprint: `${current.fingerprint.slice(0, 60)}beef` })
      .execute();
    await h().dbh.db.updateTable('pki_certs').set({ superseded: 1 }).where('id', '=', current.id).execute();
    await h().dbh.db.updateTable('pki_cas').set({ cert_id: renewedId, updated_at: h().clock.now() }).where('id', '=', ca.id).execute();
    const next = await issueFromCsr(h(), u.token, csr, 'after-renew');
    expect((await certsOf(h(), u.id)).find((c) => c.cn === 'after-renew')?.ca_id).toBe(ca.id);
    expect(next.issuer).toBe(ca.subject);
  });
});
