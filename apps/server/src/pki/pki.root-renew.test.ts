/**
 * Renewal of the platform root (issue 13) on SQLite and PostgreSQL: the same key and subject
 * with a new serial and validity, so every realm intermediate, account CA and leaf signed
 * before verifies against the renewed root, and the previous root (still in devices' trust
 * stores) verifies what is signed after. Only administrators of master holding
 * domainCert.update; audited and in the issue record like every CA renewal. openssl judges,
 * at the server's (fake) time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pkiPaths, type CaView } from '@umbo/contracts';
import { beforeAll, expect, it } from 'vitest';
import { holder } from '../perm/roles.testkit.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { chainFiles, issueFromCsr, makeCsr, openssl, pkiCounts, pkiUser, tmpDir, verifyWithOpenssl } from './pki.testkit.js';

const pubkey = (pem: string) => openssl(['x509', '-noout', '-pubkey'], pem).stdout;
const flat = (pem: string) => pem.replace(/\s+/g, '');

describeBothDbs('pki platform root renewal', (h) => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir();
  });
  const at = () => ['-attime', String(Math.floor(h().clock.now() / 1000))];

  it('A-40: only an administrator of master holding domainCert.update renews the platform root; others get 1003 and nothing changes', async () => {
    const realmId = await createRealm(h());
    await pkiUser(h(), realmId).then((u) => as(h(), u.token).get(pkiPaths.ca));
    const counts = await pkiCounts(h());
    const refused = [
      await holder(h(), realmId, 'realm-admin'), // domainCert.update, but in its own realm only
      await holder(h(), 'master', 'realm-viewer'), // in master, without the update
      await pkiUser(h(), 'master'), // own cert pages only
    ];
    for (const who of refused) {
      const res = await as(h(), who.token).post(pkiPaths.platformRootRenew);
      expect(res.status, who.username).toBe(403);
      expect(res.body).toMatchObject({ code: 1003, errData: { resource: 'domainCert', perm: 'update' } });
    }
    expect((await as(h()).post(pkiPaths.platformRootRenew)).status).toBe(401);
    expect(await pkiCounts(h())).toEqual(counts);
    // a realm-admin of master is an administrator of the platform's realm
    const masterAdmin = await holder(h(), 'master', 'realm-admin');
    const ok = await as(h(), masterAdmin.token).post(pkiPaths.platformRootRenew);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ kind: 'platform', status: 'valid' });
    expect(ok.text).not.toMatch(/PRIVATE KEY/);
  });

  it('A-42: renewing the root keeps its key and subject — intermediates and leaves issued before verify with the renewed root, the old root verifies what comes after; audited and recorded', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const admin = await h().login();
    const adminId = (
      await h().dbh.db.selectFrom('accounts').select('id').where('realm_id', '=', 'master').where('username', '=', 'admin').executeTakeFirstOrThrow()
    ).id;
    const before = (await as(h(), admin).get(pkiPaths.realmChain(realmId))).body.data as { root: CaView; intermediate: CaView };
    const oldLeaf = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'before-root').csrPem, 'before-root');
    const oldChain = await chainFiles(h(), u.token, fs.mkdtempSync(path.join(dir, 'old-')));

    h().clock.advance(24 * 3_600_000);
    const res = await as(h(), admin).post(pkiPaths.platformRootRenew);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const root = res.body.data as CaView;
    expect(root).toMatchObject({ id: before.root.id, kind: 'platform', subject: before.root.subject, issuer: before.root.subject, status: 'valid' });
    expect(root.sn).not.toBe(before.root.sn);
    expect(root.expireAtTs).toBeGreaterThan(before.root.expireAtTs);
    expect(pubkey(root.certPem)).toBe(pubkey(before.root.certPem));
    expect(openssl(['x509', '-noout', '-text'], root.certPem).stdout).toMatch(/CA:TRUE/);

    // every chain now ends in the renewed root; the untouched intermediate and the old leaf verify with it
    const newChain = await chainFiles(h(), u.token, fs.mkdtempSync(path.join(dir, 'new-')));
    expect(flat(newChain.pems[2]!)).toBe(flat(root.certPem));
    expect(flat(newChain.pems[1]!)).toBe(flat(before.intermediate.certPem));
    expect(verifyWithOpenssl(dir, newChain, oldLeaf.certPem, at()).out).toMatch(/: OK/);
    const interPath = path.join(dir, 'intermediate.pem');
    fs.writeFileSync(interPath, before.intermediate.certPem);
    expect(openssl(['verify', ...at(), '-CAfile', newChain.rootPath, interPath]).out).toMatch(/: OK/);
    // overlap: a device trusting only the previous root accepts what is issued after
    const newLeaf = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'after-root').csrPem, 'after-root');
    expect(verifyWithOpenssl(dir, newChain, newLeaf.certPem, at()).out).toMatch(/: OK/);
    expect(verifyWithOpenssl(dir, oldChain, newLeaf.certPem, at()).out).toMatch(/: OK/);
    // a realm made after the renewal: its intermediate is signed by the renewed root, verifies with both
    const later = await pkiUser(h(), await createRealm(h()));
    const laterLeaf = await issueFromCsr(h(), later.token, makeCsr(dir, 'ec256', 'later-realm').csrPem, 'later-realm');
    const laterChain = await chainFiles(h(), later.token, fs.mkdtempSync(path.join(dir, 'later-')));
    expect(verifyWithOpenssl(dir, laterChain, laterLeaf.certPem, at()).out).toMatch(/: OK/);
    expect(verifyWithOpenssl(dir, { ...laterChain, rootPath: oldChain.rootPath }, laterLeaf.certPem, at()).out).toMatch(/: OK/);

    // the root's public certificate and CRL follow the renewal
    const pub = await as(h()).get(pkiPaths.publicCaCert(realmId, root.id));
    expect(openssl(['x509', '-inform', 'DER', '-noout', '-serial'], pub.raw).stdout.trim()).toBe(`serial=${BigInt(root.sn).toString(16).toUpperCase()}`);
    const crl = await as(h()).get(pkiPaths.publicCrlPem(realmId, root.id));
    const crlPath = path.join(dir, 'root.crl.pem');
    fs.writeFileSync(crlPath, crl.text);
    expect(openssl(['crl', '-noout', '-in', crlPath, '-CAfile', newChain.rootPath]).out).toMatch(/verify OK/);

    const events = await h()
      .ctx.db.selectFrom('audit_events')
      .select(['action', 'realm_id', 'actor_id', 'result'])
      .where('target_id', '=', root.id)
      .where('action', '=', 'pki.ca.renew')
      .execute();
    expect(events).toContainEqual({ action: 'pki.ca.renew', realm_id: 'master', actor_id: adminId, result: 'ok' });
    const record = await h().dbh.db.selectFrom('pki_records').selectAll().where('kind', '=', 'renewCa').where('sn', '=', root.sn).execute();
    expect(record).toEqual([expect.objectContaining({ realm_id: null, actor_id: adminId, cn: expect.stringContaining('Platform Root CA') })]);
    // the realm intermediate can still be renewed under the renewed root
    const renewedInter = await as(h(), admin).post(pkiPaths.realmIntermediateRenew(realmId));
    expect(renewedInter.status, JSON.stringify(renewedInter.body)).toBe(200);
    const chainAfter = await chainFiles(h(), u.token, fs.mkdtempSync(path.join(dir, 'after-')));
    expect(verifyWithOpenssl(dir, chainAfter, oldLeaf.certPem, at()).out).toMatch(/: OK/);
  });
});
