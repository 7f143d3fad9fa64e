/**
 * A revoked account CA (issue 13) on SQLite and PostgreSQL: never renewed with its key (1114),
 * replaced by a new account CA with a NEW key — at the account's next issuance or by the
 * realm administrator's "replace" — while the revoked CA and what it issued stay refused by
 * openssl (the realm intermediate's CRL lists the CA). openssl judges at the server's time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pkiPaths, type CaView } from '@umbo/contracts';
import { beforeAll, expect, it } from 'vitest';
import { holder } from '../perm/roles.testkit.js';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { chainFiles, issueFromCsr, makeCsr, openssl, pkiCounts, pkiUser, tmpDir, verifyWithOpenssl } from './pki.testkit.js';

const pubkey = (pem: string) => openssl(['x509', '-noout', '-pubkey'], pem).stdout;

/** The public CRLs (PEM) of these CAs of the realm, in one file for `-CRLfile`. */
async function crlFile(h: Harness, dir: string, realmId: string, caIds: string[]): Promise<string> {
  let pem = '';
  for (const caId of caIds) {
    const res = await as(h).get(pkiPaths.publicCrlPem(realmId, caId));
    expect(res.status).toBe(200);
    pem += res.text;
  }
  const file = path.join(dir, `crls-${Math.random().toString(36).slice(2)}.pem`);
  fs.writeFileSync(file, pem);
  return file;
}

describeBothDbs('pki revoked account CA', (h) => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir();
  });
  const at = () => ['-attime', String(Math.floor(h().clock.now() / 1000))];

  it('A-43: a revoked account CA is never renewed with its key (1114); the next issuance makes a new CA with a NEW key — the new leaf verifies, the old one is refused (CRL lists the revoked CA)', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const first = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    const old = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'before-revoke').csrPem, 'before-revoke');
    const oldChain = await chainFiles(h(), u.token, fs.mkdtempSync(path.join(dir, 'old-')));
    expect(verifyWithOpenssl(dir, oldChain, old.certPem, at()).out).toMatch(/: OK/);

    h().clock.advance(3_600_000);
    const revoked = await as(h(), admin.token).post(pkiPaths.realmAccountCaRevoke(realmId, first.id), { reason: 'keyCompromise' });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);

    // renewal would put the compromised key back in service: refused, with its own code, nothing stored
    const counts = await pkiCounts(h());
    const renew = await as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, first.id));
    expect(renew.status).toBe(409);
    expect(renew.body).toMatchObject({ code: 1114, msg: expect.stringMatching(/never renewed with the same key/) });
    expect(await pkiCounts(h())).toEqual(counts);
    // viewing the CA changes nothing: it still shows the revoked one
    expect(((await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView).status).toBe('revoked');

    h().clock.advance(3_600_000);
    const fresh = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'after-revoke').csrPem, 'after-revoke');
    const next = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    expect(next).toMatchObject({ kind: 'account', accountId: u.id, realmId, status: 'valid', issuer: first.issuer });
    expect(next.id).not.toBe(first.id);
    expect(pubkey(next.certPem)).not.toBe(pubkey(first.certPem));
    // named apart, so issuer and CRL lookups by name never mix the two
    expect(next.subject).not.toBe(first.subject);
    expect(next.subject).toContain('key 2');

    const newChain = await chainFiles(h(), u.token, fs.mkdtempSync(path.join(dir, 'new-')));
    expect(newChain.pems[0]!.replace(/\s+/g, '')).toBe(next.certPem.replace(/\s+/g, ''));
    expect(verifyWithOpenssl(dir, newChain, fresh.certPem, at()).out).toMatch(/: OK/);
    // the old leaf is not signed by the new key
    expect(verifyWithOpenssl(dir, newChain, old.certPem, at()).out).not.toMatch(/: OK/);

    // with the CRLs, the old chain no longer stands: the intermediate's CRL lists the revoked CA
    const chain = (await as(h(), admin.token).get(pkiPaths.realmChain(realmId))).body.data as { root: CaView; intermediate: CaView };
    const crls = await crlFile(h(), dir, realmId, [chain.root.id, chain.intermediate.id, first.id, next.id]);
    const intermediateCrl = openssl(['crl', '-noout', '-text'], (await as(h()).get(pkiPaths.publicCrlPem(realmId, chain.intermediate.id))).text).stdout;
    expect(intermediateCrl).toContain(`Serial Number: ${BigInt(first.sn).toString(16).toUpperCase()}`);
    const checked = (files: typeof oldChain, pem: string) => verifyWithOpenssl(dir, files, pem, [...at(), '-crl_check_all', '-CRLfile', crls]).out;
    expect(checked(oldChain, old.certPem)).toMatch(/certificate revoked/);
    expect(checked(newChain, fresh.certPem)).toMatch(/: OK/);
    expect(await h().ctx.services.pkiCerts.statusOf(realmId, chain.intermediate.id, first.sn)).toMatchObject({ status: 'revoked', reason: 'keyCompromise' });

    // both account CAs are listed for the realm's administrators; the replacement is audited
    const list = (await as(h(), admin.token).get(pkiPaths.realmAccountCas(realmId))).body.data.items as CaView[];
    expect(list.map((c) => [c.id, c.status]).sort()).toEqual(
      [
        [first.id, 'revoked'],
        [next.id, 'valid'],
      ].sort(),
    );
    const events = await h().ctx.db.selectFrom('audit_events').select(['action', 'actor_id', 'realm_id']).where('target_id', '=', next.id).execute();
    expect(events).toEqual([{ action: 'pki.ca.replace', actor_id: u.id, realm_id: realmId }]);
  });

  it('A-43: the administrator replaces a revoked account CA (domainCert.update); parallel replacements and issuances make ONE new CA; a CA that is not revoked is not replaced (1009)', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const viewer = await holder(h(), realmId, 'realm-viewer');
    const u = await pkiUser(h(), realmId);
    const first = (await as(h(), u.token).get(pkiPaths.ca)).body.data as CaView;
    const notRevoked = await as(h(), admin.token).post(pkiPaths.realmAccountCaReplace(realmId, first.id));
    expect(notRevoked.status).toBe(400);
    expect(notRevoked.body).toMatchObject({ code: 1009, errData: { field: 'caId' } });
    await as(h(), admin.token).post(pkiPaths.realmAccountCaRevoke(realmId, first.id), { reason: 'cACompromise' });

    // a viewer and another realm's administrator may not; another realm's path answers 1004
    expect((await as(h(), viewer.token).post(pkiPaths.realmAccountCaReplace(realmId, first.id))).status).toBe(403);
    const otherRealm = await createRealm(h());
    const otherAdmin = await holder(h(), otherRealm, 'realm-admin');
    expect((await as(h(), otherAdmin.token).post(pkiPaths.realmAccountCaReplace(realmId, first.id))).status).toBe(403);
    expect((await as(h(), otherAdmin.token).post(pkiPaths.realmAccountCaReplace(otherRealm, first.id))).body.code).toBe(1004);

    const csr = makeCsr(dir, 'ec256', 'race').csrPem;
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => as(h(), admin.token).post(pkiPaths.realmAccountCaReplace(realmId, first.id))),
      ...Array.from({ length: 4 }, (_, i) => as(h(), u.token).post(pkiPaths.certs, { csrPem: csr, cnType: 'deviceId', cn: `race-${i}` })),
    ]);
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const cas = await h().dbh.db.selectFrom('pki_cas').select(['id', 'slot']).where('account_id', '=', u.id).execute();
    expect(cas).toHaveLength(2);
    const next = cas.find((c) => c.id !== first.id)!;
    expect(cas.find((c) => c.id === first.id)!.slot).not.toBe(next.slot);
    for (const a of answers.slice(0, 4)) expect(a.body.data).toMatchObject({ id: next.id, status: 'valid' });
    // every leaf of the race was signed by the new CA and verifies with the new chain
    const chain = await chainFiles(h(), u.token, fs.mkdtempSync(path.join(dir, 'race-')));
    for (const a of answers.slice(4)) expect(verifyWithOpenssl(dir, chain, a.body.data.certPem, at()).out).toMatch(/: OK/);
    expect(
      await h().dbh.db.selectFrom('audit_events').select('id').where('action', '=', 'pki.ca.replace').where('realm_id', '=', realmId).execute(),
    ).toHaveLength(1);
    // the new CA is renewable as usual (same NEW key), the revoked one still is not
    expect((await as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, next.id))).status).toBe(200);
    expect((await as(h(), admin.token).post(pkiPaths.realmAccountCaRenew(realmId, first.id))).body.code).toBe(1114);
  });
  it('A-43: set cert does not take a revoked account CA as ours: its certificate needs allowUnknownCa (1110) and is kept as not ours', async () => {
    const realmId = await createRealm(h());
    const admin = await holder(h(), realmId, 'realm-admin');
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const ca = (await api.get(pkiPaths.ca)).body.data as CaView;
    const key = (await api.post(pkiPaths.keys, { name: 'revokedca', description: 'attach later', algorithm: 'EC', strength: 'P-256', returnPrivateKey: true }))
      .body.data;
    const keyPath = path.join(dir, `${key.id}.key`);
    fs.writeFileSync(keyPath, key.keyPem);
    const issued = await issueFromCsr(h(), u.token, openssl(['req', '-new', '-key', keyPath, '-subj', '/CN=late-attach']).stdout, 'late-attach');
    expect((await as(h(), admin.token).post(pkiPaths.realmAccountCaRevoke(realmId, ca.id), { reason: 'keyCompromise' })).status).toBe(200);
    const refused = await api.post(pkiPaths.keyCert(key.id), { certPem: issued.certPem });
    expect(refused.body).toMatchObject({ code: 1110 });
    const allowed = await api.post(pkiPaths.keyCert(key.id), { certPem: issued.certPem, allowUnknownCa: true });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.data).toMatchObject({ ours: false, cn: 'late-attach' });
  });
});
