/**
 * The realm door (issue 13, domain/cert) on SQLite and PostgreSQL: the realm's chain, the
 * account CAs of its accounts, renewal of the intermediate and of account CAs (issued certificates keep verifying, openssl judges),
 * revocation of an account CA (in the intermediate's CRL; never renewed with its key: 1114),
 * the expiry inventory; and the chain downloads (PEM, DER, PKCS#7).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pkiPaths, type CaView } from '@umbo/contracts';
import { beforeAll, expect, it } from 'vitest';
import { holder } from '../perm/roles.testkit.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { realmUrl, settingsUrl } from '../realms/realms.testkit.js';
import { chainFiles, issueFromCsr, makeCsr, openssl, pkiUser, tmpDir, verifyWithOpenssl } from './pki.testkit.js';

describeBothDbs('pki realm door', (h) => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir();
  });

  it('the realm chain and the account CAs of its accounts (q filters by user name)', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u1 = await pkiUser(h(), realmId);
    const u2 = await pkiUser(h(), realmId);
    const ca1 = (await as(h(), u1.token).get(pkiPaths.ca)).body.data as CaView;
    await as(h(), u2.token).get(pkiPaths.ca);
    const chain = await as(h(), admin.token).get(pkiPaths.realmChain(realmId));
    expect(chain.status).toBe(200);
    expect(chain.body.data.root).toMatchObject({ kind: 'platform', realmId: null });
    expect(chain.body.data.intermediate).toMatchObject({ kind: 'realm', realmId, issuer: chain.body.data.root.subject });
    expect(ca1.issuer).toBe(chain.body.data.intermediate.subject);
    const list = await as(h(), admin.token).get(pkiPaths.realmAccountCas(realmId));
    expect(list.body.data.items).toHaveLength(2);
    const one = await as(h(), admin.token).get(`${pkiPaths.realmAccountCas(realmId)}?q=${u1.username}`);
    expect(one.body.data.items).toEqual([expect.objectContaining({ id: ca1.id, accountName: u1.username, status: 'valid' })]);
    // a plain account of the realm has no domainCert
    expect((await as(h(), u1.token).get(pkiPaths.realmAccountCas(realmId))).status).toBe(403);
  });

  it('renewing an account CA keeps the key: certificates issued before verify with the renewed chain (openssl)', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const before = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    const cert = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'old-leaf').csrPem, 'old-leaf');
    h().clock.advance(12 * 3_600_000);
    // openssl judges at the server's (fake) time
    const at = () => ['-attime', String(Math.floor(h().clock.now() / 1000))];
    const renewed = await as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, before.id));
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    const after = renewed.body.data as CaView;
    expect(after).toMatchObject({ id: before.id, subject: before.subject });
    expect(after.sn).not.toBe(before.sn);
    expect(after.expireAtTs).toBeGreaterThan(before.expireAtTs);
    const chain = await chainFiles(h(), u.token, dir);
    const flat = (pem: string) => pem.replace(/\s+/g, '');
    expect(flat(chain.pems[0]!)).toBe(flat(after.certPem));
    expect(verifyWithOpenssl(dir, chain, cert.certPem, at()).out).toMatch(/: OK/);
    const fresh = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'new-leaf').csrPem, 'new-leaf');
    expect(verifyWithOpenssl(dir, chain, fresh.certPem, at()).out).toMatch(/: OK/);
    const kinds = (await as(h(), u.token).get(pkiPaths.records)).body.data.items.map((r: { kind: string }) => r.kind);
    expect(kinds).toContain('renewCa');
  });

  it('renewing the realm intermediate: same key and subject, realmMiddleCertValidity, certificates issued before verify (openssl); audited; domainCert.update only', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    await as(h(), u.token).get(pkiPaths.ca);
    const before = (await as(h(), admin.token).get(pkiPaths.realmChain(realmId))).body.data.intermediate as CaView;
    const old = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'before-renew').csrPem, 'before-renew');
    const master = await h().login();
    const patched = await as(h(), master).patch(settingsUrl(realmId), { realmMiddleCertValidity: 9000 });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    h().clock.advance(12 * 3_600_000);
    const at = () => ['-attime', String(Math.floor(h().clock.now() / 1000))];
    // a plain account of the realm may not, nor an administrator of another realm
    expect((await as(h(), u.token).post(pkiPaths.realmIntermediateRenew(realmId))).status).toBe(403);
    const otherAdmin = await holder(h(), await createRealm(h()), 'realm-admin');
    expect((await as(h(), otherAdmin.token).post(pkiPaths.realmIntermediateRenew(realmId))).status).toBe(403);
    const res = await as(h(), admin.token).post(pkiPaths.realmIntermediateRenew(realmId));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = res.body.data.intermediate as CaView;
    expect(after).toMatchObject({ id: before.id, kind: 'realm', subject: before.subject, issuer: before.issuer, status: 'valid' });
    expect(after.sn).not.toBe(before.sn);
    expect(after.expireAtTs).toBeGreaterThan(h().clock.now() + 8999 * 86_400_000);
    expect(after.expireAtTs).toBeLessThanOrEqual(h().clock.now() + 9000 * 86_400_000);
    // same key: the public keys of both certificates are one
    const pubkey = (pem: string) => openssl(['x509', '-noout', '-pubkey'], pem).stdout;
    expect(pubkey(after.certPem)).toBe(pubkey(before.certPem));
    // the chain now carries the renewed intermediate; the untouched account CA and the old leaf verify with it
    const chain = await chainFiles(h(), u.token, dir);
    const flat = (pem: string) => pem.replace(/\s+/g, '');
    expect(flat(chain.pems[1]!)).toBe(flat(after.certPem));
    expect(verifyWithOpenssl(dir, chain, old.certPem, at()).out).toMatch(/: OK/);
    const fresh = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'after-renew').csrPem, 'after-renew');
    expect(verifyWithOpenssl(dir, chain, fresh.certPem, at()).out).toMatch(/: OK/);
    const events = await h()
      .ctx.db.selectFrom('audit_events')
      .select(['action', 'realm_id', 'actor_id', 'result'])
      .where('target_id', '=', before.id)
      .where('action', '=', 'pki.ca.renew')
      .execute();
    expect(events).toEqual([{ action: 'pki.ca.renew', realm_id: realmId, actor_id: admin.id, result: 'ok' }]);
  });

  it('revoking an account CA: its certificates (renewed ones too) in the intermediate’s CRL, renew refused (1114), a second revocation 1109', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const first = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    // renewed once: the replaced certificate has the same key and must go into the CRL too
    const ca = (await as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, first.id))).body.data as CaView;
    const revoked = await as(h(), admin.token).post(pkiPaths.realmAccountCaRevoke(realmId, ca.id), { reason: 'cACompromise' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.status).toBe('revoked');
    const chain = (await as(h(), admin.token).get(pkiPaths.realmChain(realmId))).body.data;
    const crl = openssl(['crl', '-noout', '-text'], (await as(h()).get(pkiPaths.publicCrlPem(realmId, chain.intermediate.id))).text).stdout;
    expect(crl).toContain(`Serial Number: ${BigInt(ca.sn).toString(16).toUpperCase()}`);
    expect(crl).toMatch(/CA Compromise/);
    expect(crl).toContain(`Serial Number: ${BigInt(first.sn).toString(16).toUpperCase()}`);
    // replacement with a new key on the next issuance: pki.ca-replace.test.ts
    expect((await as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, ca.id))).body.code).toBe(1114);
    expect((await as(h(), admin.token).post(pkiPaths.realmAccountCaRevoke(realmId, ca.id), { reason: 'cACompromise' })).body.code).toBe(1109);
    // OCSP's view agrees
    expect(await h().ctx.services.pkiCerts.statusOf(realmId, chain.intermediate.id, ca.sn)).toMatchObject({ status: 'revoked', reason: 'cACompromise' });
  });

  it('expiry inventory: counts within 7/30/90 days and the items ending within withinDays', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const now = h().clock.now();
    const { csrPem } = makeCsr(dir, 'ec256', 'soon');
    for (const days of [5, 20, 60, 200]) {
      await issueFromCsr(h(), u.token, csrPem, `soon-${days}`, { expireAtTs: now + days * 86_400_000 });
    }
    const inv = await as(h(), admin.token).get(`${pkiPaths.realmExpiring(realmId)}?withinDays=30`);
    expect(inv.status).toBe(200);
    expect(inv.body.data.counts).toEqual({ d7: 1, d30: 2, d90: 3 });
    expect(inv.body.data.items.map((i: { cn: string }) => i.cn)).toEqual(['soon-5', 'soon-20']);
    expect(inv.body.data.items[0]).toMatchObject({ accountName: u.username, type: 'device' });
  });

  it('chain downloads: PEM (3 certificates), DER (the account CA), PKCS#7 that openssl reads; public .crt is the CA in DER', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const ca = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    const pem = await as(h(), u.token).get(pkiPaths.caChain('pem'));
    expect(pem.text.match(/BEGIN CERTIFICATE/g)).toHaveLength(3);
    const der = await as(h(), u.token).get(pkiPaths.caChain('der'));
    const derPath = path.join(dir, 'ca.der');
    fs.writeFileSync(derPath, der.raw);
    expect(openssl(['x509', '-inform', 'DER', '-in', derPath, '-noout', '-serial']).stdout.trim()).toBe(`serial=${BigInt(ca.sn).toString(16).toUpperCase()}`);
    const p7 = await as(h(), u.token).get(pkiPaths.caChain('p7b'));
    expect(p7.status).toBe(200);
    const p7Path = path.join(dir, 'chain.p7b');
    fs.writeFileSync(p7Path, p7.raw);
    expect(openssl(['pkcs7', '-inform', 'DER', '-in', p7Path, '-print_certs', '-noout']).stdout.match(/subject=/g)).toHaveLength(3);
    const pub = await as(h()).get(pkiPaths.publicCaCert(realmId, ca.id));
    expect(pub.status).toBe(200);
    expect(Buffer.compare(pub.raw, der.raw)).toBe(0);
  });

  it('deleting a realm removes its CAs, keys, certificates and records; the platform root and other realms keep theirs', async () => {
    const admin = await h().login();
    const doomed = await createRealm(h());
    const kept = await createRealm(h());
    for (const realmId of [doomed, kept]) {
      const u = await pkiUser(h(), realmId);
      await as(h(), u.token).post(pkiPaths.keys, { name: 'doomed_key', description: 'to be deleted', algorithm: 'EC', strength: 'P-256' });
      const cert = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', `del-${realmId}`).csrPem, `del-${realmId}`);
      await as(h(), u.token).post(pkiPaths.certRevoke(cert.id), { reason: 'superseded' });
    }
    const accounts = await h().dbh.db.selectFrom('accounts').select('id').where('realm_id', '=', doomed).execute();
    const res = await as(h(), admin).delete(realmUrl(doomed), { confirmDeleteEverything: true, accountCount: accounts.length });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const db = h().dbh.db;
    for (const t of ['pki_cas', 'pki_certs', 'pki_keys', 'pki_records'] as const) {
      expect((await db.selectFrom(t).select('id').where('realm_id', '=', doomed).execute()).length, t).toBe(0);
      expect((await db.selectFrom(t).select('id').where('realm_id', '=', kept).execute()).length, t).toBeGreaterThan(0);
    }
    expect(await db.selectFrom('pki_cas').select('id').where('kind', '=', 'platform').execute()).toHaveLength(1);
  });
});
