/**
 * The device CA through the API (issue 13), on SQLite and PostgreSQL, with openssl as the judge:
 * keys, issuance from openssl CSRs (EC P-256/P-384, RSA, Ed25519) and managed keys, the chain,
 * reissue, set cert, records, CA edit, A-42, CA-01…CA-03, CA-05.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pkiPaths, type CertView, type KeyView } from '@umbo/contracts';
import { beforeAll, expect, it } from 'vitest';
import { auditRows } from '../perm/roles.testkit.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { chainFiles, issueFromCsr, makeCsr, openssl, pkiUser, tmpDir, verifyWithOpenssl } from './pki.testkit.js';

describeBothDbs('pki API', (h) => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir();
  });

  it('A-42 issues from openssl CSRs (EC P-256, P-384, RSA 2048, Ed25519) and openssl verifies each with the chain', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const chain = await chainFiles(h(), u.token, dir);
    for (const key of ['ec256', 'ec384', 'rsa2048', 'ed25519'] as const) {
      const { csrPem } = makeCsr(dir, key, `dev-${key}`);
      const cert = await issueFromCsr(h(), u.token, csrPem, `dev-${key}`);
      expect(cert).toMatchObject({ type: 'device', cn: `dev-${key}`, status: 'valid', ours: true, revokeStatus: { revoked: false } });
      const v = verifyWithOpenssl(dir, chain, cert.certPem, ['-purpose', 'sslclient']);
      expect(v.out, key).toMatch(/: OK/);
      expect(v.code).toBe(0);
    }
  });

  it('CA-01 CA-02 the leaf: cA=FALSE critical, clientAuth, random positive serial of ≥ 64 bits and ≤ 20 octets, CRL DP and AIA on the public URL; CSR extensions not copied', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    // the CSR asks for a CA certificate and a SAN of its own choosing: neither may appear
    const { csrPem } = makeCsr(dir, 'ec256', 'greedy', [
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=keyCertSign',
      '-addext',
      'subjectAltName=DNS:evil.example',
    ]);
    const serials = new Set<string>();
    let last: CertView | undefined;
    for (let i = 0; i < 5; i++) {
      last = await issueFromCsr(h(), u.token, csrPem, 'greedy');
      serials.add(last.sn);
      const n = BigInt(last.sn);
      expect(n > 2n ** 64n).toBe(true);
      expect(n.toString(16).length).toBeLessThanOrEqual(40);
    }
    expect(serials.size).toBe(5);
    const text = openssl(['x509', '-noout', '-text'], last!.certPem).stdout;
    expect(text).toMatch(/Basic Constraints: critical\s+CA:FALSE/);
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature/);
    expect(text).toMatch(/TLS Web Client Authentication/);
    expect(text).not.toMatch(/evil\.example/);
    expect(text).not.toMatch(/Certificate Sign/);
    const ca = (await as(h(), u.token).get(pkiPaths.ca)).body.data;
    expect(text).toContain(`URI:http://umbo.test${pkiPaths.publicCrl(realmId, ca.id)}`);
    expect(text).toContain(`CA Issuers - URI:http://umbo.test${pkiPaths.publicCaCert(realmId, ca.id)}`);
    expect(text).toContain(`OCSP - URI:http://umbo.test${pkiPaths.publicOcsp(realmId, ca.id)}`);
  });

  it('CA-02 the chain: root and intermediates cA=TRUE critical with keyCertSign/cRLSign, pathLen 1 (realm) and 0 (account)', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const { pems } = await chainFiles(h(), u.token, dir);
    const [account, realm, root] = pems.map((p) => openssl(['x509', '-noout', '-text'], p).stdout);
    expect(account).toMatch(/CA:TRUE, pathlen:0/);
    expect(realm).toMatch(/CA:TRUE, pathlen:1/);
    expect(root).toMatch(/Basic Constraints: critical\s+CA:TRUE/);
    for (const t of [account, realm, root]) expect(t).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign/);
  });

  it('managed keys: generate (keyPem once), list, public PEM, issue from the key, delete refused while in use', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const created = await api.post(pkiPaths.keys, { name: 'robot_1', description: 'robot key', algorithm: 'EC', strength: 'P-256', returnPrivateKey: true });
    expect(created.status).toBe(200);
    const key = created.body.data as KeyView & { keyPem?: string };
    expect(key.keyPem).toMatch(/BEGIN PRIVATE KEY/);
    const listed = await api.get(pkiPaths.keys);
    expect(listed.body.data.items.map((k: KeyView) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(listed.body)).not.toContain('PRIVATE KEY');
    const pub = await api.get(pkiPaths.keyPublic(key.id));
    expect(pub.text).toBe(key.publicKeyPem);
    const issued = await api.post(pkiPaths.certs, {
      keyId: key.id,
      type: 'service',
      cnType: 'dns',
      cn: 'robot.example.com',
      san: [{ type: 'ip', value: '10.0.0.7' }],
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const cert = issued.body.data as CertView;
    expect(cert).toMatchObject({ keyId: key.id, keyName: 'robot_1', cnType: 'dns' });
    // the certificate's key is the managed key: openssl pairs them
    const keyPath = path.join(dir, `${key.id}.key`);
    fs.writeFileSync(keyPath, key.keyPem!);
    expect(openssl(['x509', '-noout', '-pubkey'], cert.certPem).stdout).toBe(openssl(['pkey', '-in', keyPath, '-pubout']).stdout);
    const text = openssl(['x509', '-noout', '-text'], cert.certPem).stdout;
    expect(text).toMatch(/DNS:robot\.example\.com, IP Address:10\.0\.0\.7/);
    expect(text).toMatch(/TLS Web Client Authentication, TLS Web Server Authentication|TLS Web Server Authentication, TLS Web Client Authentication/);
    expect((await api.get(pkiPaths.key(key.id))).body.data.validCertCount).toBe(1);
    const refused = await api.delete(pkiPaths.key(key.id));
    expect(refused.body).toMatchObject({ code: 1107 });
    expect((await api.post(pkiPaths.certRevoke(cert.id), { reason: 'superseded' })).status).toBe(200);
    expect((await api.delete(pkiPaths.key(key.id))).status).toBe(200);
    expect((await api.get(pkiPaths.keys)).body.data.items).toEqual([]);
  });

  it('reissue keeps key and subject with a new serial; records and audit events for issue, reissue and revoke', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const { csrPem } = makeCsr(dir, 'ec256', 'renewme');
    const first = await issueFromCsr(h(), u.token, csrPem, 'renewme');
    h().clock.advance(1000);
    const again = await api.post(pkiPaths.certReissue(first.id));
    expect(again.status).toBe(200);
    const second = again.body.data as CertView;
    expect(second.sn).not.toBe(first.sn);
    expect(second.subject).toBe(first.subject);
    const pk = (pem: string) => openssl(['x509', '-noout', '-pubkey'], pem).stdout;
    expect(pk(second.certPem)).toBe(pk(first.certPem));
    h().clock.advance(1000);
    await api.post(pkiPaths.certRevoke(first.id), { reason: 'keyCompromise' });
    const records = (await api.get(pkiPaths.records)).body.data.items as { kind: string; sn: string; reason: string | null; actorName: string }[];
    expect(records.map((r) => r.kind)).toEqual(['revoke', 'reissue', 'issue']);
    expect(records[0]).toMatchObject({ sn: first.sn, reason: 'keyCompromise', actorName: u.username });
    const bySn = await api.get(`${pkiPaths.certs}?sn=${second.sn}`);
    expect(bySn.body.data.items.map((c: CertView) => c.id)).toEqual([second.id]);
    const revoked = await api.get(`${pkiPaths.certs}?status=revoked`);
    expect(revoked.body.data.items.map((c: CertView) => c.id)).toEqual([first.id]);
    // every issuance, reissue and revocation is an audit event of the realm, by the account
    for (const action of ['pki.cert.issue', 'pki.cert.reissue', 'pki.cert.revoke']) {
      const rows = await auditRows(h(), realmId, action);
      expect(rows.length, action).toBeGreaterThan(0);
      expect(rows[rows.length - 1]!.actor_name).toBe(u.username);
    }
  });

  it('set cert: a certificate for the key from our CA is attached; another key’s is 1111; a foreign CA is 1110 unless allowUnknownCa', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const key = (await api.post(pkiPaths.keys, { name: 'setcert', description: 'for set cert', algorithm: 'EC', strength: 'P-256', returnPrivateKey: true }))
      .body.data;
    const keyPath = path.join(dir, `${key.id}.key`);
    fs.writeFileSync(keyPath, key.keyPem);
    // a CSR with the managed key, issued by us, then attached
    const csrPem = openssl(['req', '-new', '-key', keyPath, '-subj', '/CN=attached']).stdout;
    const ours = await issueFromCsr(h(), u.token, csrPem, 'attached');
    const set = await api.post(pkiPaths.keyCert(key.id), { certPem: ours.certPem });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ ours: true, keyId: key.id, sn: ours.sn });
    // a certificate of another key
    const other = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'other').csrPem, 'other');
    expect((await api.post(pkiPaths.keyCert(key.id), { certPem: other.certPem })).body).toMatchObject({ code: 1111 });
    // self-signed by the key: not ours
    const self = openssl(['req', '-x509', '-key', keyPath, '-subj', '/CN=selfie', '-days', '5']).stdout;
    expect((await api.post(pkiPaths.keyCert(key.id), { certPem: self })).body).toMatchObject({ code: 1110 });
    const allowed = await api.post(pkiPaths.keyCert(key.id), { certPem: self, allowUnknownCa: true });
    expect(allowed.body.data).toMatchObject({ ours: false, cn: 'selfie' });
    const kinds = (await api.get(pkiPaths.records)).body.data.items.map((r: { kind: string }) => r.kind);
    expect(kinds.filter((k: string) => k === 'import')).toHaveLength(2);
  });

  it('edit CA: description and periods; default over maximum and under a month refused; issuance follows the maximum', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const api = as(h(), u.token);
    const edited = await api.patch(pkiPaths.ca, { description: 'robots of line 2', defaultIssueValidPeriod: 60, maxIssueValidPeriod: 90 });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ description: 'robots of line 2', defaultIssueValidPeriod: 60, maxIssueValidPeriod: 90, kind: 'account' });
    expect(edited.body.data.certPem).toMatch(/BEGIN CERTIFICATE/);
    expect(JSON.stringify(edited.body)).not.toMatch(/PRIVATE KEY/);
    expect((await api.patch(pkiPaths.ca, { defaultIssueValidPeriod: 20 })).status).toBe(400);
    expect((await api.patch(pkiPaths.ca, { defaultIssueValidPeriod: 100 })).status).toBe(400);
    const { csrPem } = makeCsr(dir, 'ec256', 'periodic');
    const def = await issueFromCsr(h(), u.token, csrPem, 'periodic');
    expect(Math.round((def.expireAtTs - def.notBeforeTs) / 86_400_000)).toBe(60);
    const now = h().clock.now();
    const tooLong = await api.post(pkiPaths.certs, { csrPem, cnType: 'deviceId', cn: 'periodic', expireAtTs: now + 91 * 86_400_000 });
    expect(tooLong.body).toMatchObject({ code: 1106, errData: { maxDays: 90 } });
  });
});
