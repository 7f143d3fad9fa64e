/**
 * The device CA's security and reliability items (issue 13) on SQLite and PostgreSQL: CA-03
 * (forged CSR signature), bad input (truncated PEM, garbage, RSA 1024, 10 MB, SANs breaking
 * SPEC §5) each a clear code with nothing stored, A-45 (failure between certificate and record
 * → nothing stored), CA-05 (no CA private key in any answer, sealed at rest), realm and account
 * isolation, and parallel revocations / first-need CA creations / key creations.
 */
import { pkiPaths, type CaView, type CertView } from '@umbo/contracts';
import { beforeAll, expect, it, vi } from 'vitest';
import { holder } from '../perm/roles.testkit.js';
import { transactOn } from '../platform/db.js';
import { describeBothDbs } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { createCaService } from './ca.service.js';
import { createCaStore } from './ca.store.js';
import { issueFromCsr, makeCsr, openssl, pkiCounts, pkiUser, tmpDir } from './pki.testkit.js';

describeBothDbs('pki security', (h) => {
  let dir: string;
  beforeAll(() => {
    dir = tmpDir();
  });

  async function readyUser() {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    expect((await as(h(), u.token).get(pkiPaths.ca)).status).toBe(200);
    return { realmId, u, api: as(h(), u.token) };
  }

  it('CA-03 bad input: empty, truncated PEM, forged signature, RSA 1024, garbage, wrong PEM type, bad SAN → the documented code, nothing stored', async () => {
    const { api } = await readyUser();
    const { csrPem } = makeCsr(dir, 'ec256', 'victim');
    const der = Buffer.from(csrPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
    const forged = Buffer.from(der);
    forged[forged.length - 3] = forged[forged.length - 3]! ^ 0x5a;
    const forgedPem = `-----BEGIN CERTIFICATE REQUEST-----\n${forged.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE REQUEST-----\n`;
    const lines = csrPem.trim().split('\n');
    const cases: [string, object, number][] = [
      ['empty', { csrPem: '   ' }, 1100],
      ['truncated (no END line)', { csrPem: lines.slice(0, -2).join('\n') }, 1102],
      ['truncated body', { csrPem: [...lines.slice(0, 3), lines[lines.length - 1]].join('\n') }, 1102],
      ['forged signature', { csrPem: forgedPem }, 1103],
      ['RSA 1024', { csrPem: makeCsr(dir, 'rsa1024', 'weak').csrPem }, 1104],
      ['binary garbage', { csrPem: Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256)).toString('latin1') }, 1102],
      [
        'a certificate, not a CSR',
        {
          csrPem: openssl([
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:P-256',
            '-nodes',
            '-keyout',
            '/dev/null',
            '-subj',
            '/CN=x',
            '-days',
            '1',
          ]).stdout,
        },
        1102,
      ],
      ['bad DNS SAN', { csrPem, san: [{ type: 'dns', value: '-bad-.example' }] }, 1105],
      ['bad IP SAN', { csrPem, san: [{ type: 'ip', value: '999.1.1.1' }] }, 1105],
      ['bad email SAN', { csrPem, san: [{ type: 'email', value: 'not-an-email' }] }, 1105],
      ['bad URI SAN', { csrPem, san: [{ type: 'uri', value: 'ftp://files.example' }] }, 1105],
      ['bad DNS common name', { csrPem, cnType: 'dns', cn: 'under_score..example' }, 1105],
      ['device id with spaces', { csrPem, cn: 'two words' }, 1105],
    ];
    const before = await pkiCounts(h());
    for (const [what, body, code] of cases) {
      const res = await api.post(pkiPaths.certs, { cnType: 'deviceId', cn: 'victim', ...body });
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      expect(res.body.code, `${what}: ${JSON.stringify(res.body)}`).toBe(code);
    }
    // a 10 MB upload: 413 before anything is read
    const big = await api.post(pkiPaths.certs, { cnType: 'deviceId', cn: 'victim', csrPem: 'A'.repeat(10 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe(1013);
    expect(await pkiCounts(h())).toEqual(before);
  });

  it('A-45 a failure between the certificate and its record stores nothing; a failure in revocation revokes nothing', async () => {
    const { api, realmId, u } = await readyUser();
    const { csrPem } = makeCsr(dir, 'ec256', 'fault');
    const before = await pkiCounts(h());
    const spy = vi.spyOn(h().ctx.repos.pkiCerts, 'insertRecord').mockRejectedValueOnce(new Error('injected fault'));
    try {
      const res = await api.post(pkiPaths.certs, { csrPem, cnType: 'deviceId', cn: 'fault' });
      expect(res.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await pkiCounts(h())).toEqual(before);
    const cert = await issueFromCsr(h(), u.token, csrPem, 'fault');
    const ca = (await api.get(pkiPaths.ca)).body.data as CaView;
    const crlBefore = (await as(h()).get(pkiPaths.publicCrlPem(realmId, ca.id))).text;
    const spy2 = vi.spyOn(h().ctx.repos.pkiCerts, 'insertRecord').mockRejectedValueOnce(new Error('injected fault'));
    try {
      expect((await api.post(pkiPaths.certRevoke(cert.id), { reason: 'keyCompromise' })).status).toBe(500);
    } finally {
      spy2.mockRestore();
    }
    expect((await api.get(pkiPaths.cert(cert.id))).body.data).toMatchObject({ status: 'valid', revokeStatus: { revoked: false } });
    expect((await as(h()).get(pkiPaths.publicCrlPem(realmId, ca.id))).text).toBe(crlBefore);
  });

  it('CA-05 no answer carries a CA private key; CA and managed keys are sealed at rest', async () => {
    const { realmId, api } = await readyUser();
    const admin = await h().login();
    const answers = [
      await api.get(pkiPaths.ca),
      await api.get(pkiPaths.caChain('pem')),
      await as(h(), admin).get(pkiPaths.realmChain(realmId)),
      await as(h(), admin).get(pkiPaths.realmAccountCas(realmId)),
      await api.post(pkiPaths.keys, { name: 'sealed', description: 'sealed key', algorithm: 'RSA', strength: '2048' }),
      await api.get(pkiPaths.keys),
    ];
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).not.toMatch(/PRIVATE KEY|key_sealed|private_sealed/);
    }
    const cas = await h().dbh.db.selectFrom('pki_cas').select('key_sealed').execute();
    const keys = await h().dbh.db.selectFrom('pki_keys').select('private_sealed').execute();
    expect(cas.length).toBeGreaterThan(0);
    // Sealed: the master key's envelope, not PEM, and not the bare base64 of a DER key ("MII…");
    // "MII" may occur inside random ciphertext, so only the start is checked for it.
    for (const v of [...cas.map((c) => c.key_sealed), ...keys.map((k) => k.private_sealed)]) {
      expect(v).toMatch(/^v1\./);
      expect(v).not.toMatch(/BEGIN|PRIVATE|^MII/);
    }
  });

  it('isolation: another account’s or realm’s certificate is 1004; realm B’s administrators cannot see or revoke realm A’s account CAs', async () => {
    const a = await readyUser();
    const cert = await issueFromCsr(h(), a.u.token, makeCsr(dir, 'ec256', 'mine').csrPem, 'mine');
    const caA = (await a.api.get(pkiPaths.ca)).body.data as CaView;
    const sameRealm = await pkiUser(h(), a.realmId);
    const b = await readyUser();
    for (const other of [as(h(), sameRealm.token), b.api]) {
      expect((await other.get(pkiPaths.cert(cert.id))).body.code).toBe(1004);
      expect((await other.post(pkiPaths.certRevoke(cert.id), { reason: 'keyCompromise' })).body.code).toBe(1004);
      expect((await other.post(pkiPaths.certReissue(cert.id))).body.code).toBe(1004);
      expect((await other.get(pkiPaths.certs)).body.data.items).toEqual([]);
    }
    const adminB = await holder(h(), b.realmId, 'realm-admin');
    expect((await as(h(), adminB.token).get(pkiPaths.realmAccountCas(a.realmId))).status).toBe(403);
    expect((await as(h(), adminB.token).post(pkiPaths.realmAccountCaRevoke(b.realmId, caA.id), { reason: 'keyCompromise' })).body.code).toBe(1004);
    expect((await as(h(), adminB.token).post(pkiPaths.realmAccountCaRenew(b.realmId, caA.id))).body.code).toBe(1004);
    // public paths: realm A's CA is not found under realm B
    expect((await as(h()).get(pkiPaths.publicCaCert(b.realmId, caA.id))).status).toBe(404);
    expect((await as(h()).get(pkiPaths.publicCaCert(a.realmId, caA.id))).status).toBe(200);
    expect((await a.api.get(pkiPaths.cert(cert.id))).body.data.status).toBe('valid');
  });

  it('200 parallel revocations of one certificate → one revocation, one record, one CRL entry', async () => {
    const { api, realmId, u } = await readyUser();
    const cert = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'contested').csrPem, 'contested');
    const answers = await Promise.all(Array.from({ length: 200 }, () => api.post(pkiPaths.certRevoke(cert.id), { reason: 'keyCompromise' })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.body.code === 1109)).toHaveLength(199);
    expect(await h().ctx.repos.pkiCerts.countRecords(cert.id, 'revoke')).toBe(1);
    const ca = (await api.get(pkiPaths.ca)).body.data as CaView;
    const text = openssl(['crl', '-noout', '-text'], (await as(h()).get(pkiPaths.publicCrlPem(realmId, ca.id))).text).stdout;
    expect(text.split(`Serial Number: ${BigInt(cert.sn).toString(16).toUpperCase()}`).length - 1).toBe(1);
  });

  it('50 parallel first-need account CA creations (two server instances) → one CA', async () => {
    const realmId = await createRealm(h());
    const u = await pkiUser(h(), realmId);
    const { repos, clock, services } = h().ctx;
    const transact = transactOn(h().dbh.db);
    // a second process: its own store and service (own caches), the same database
    const store2 = createCaStore({
      pki: repos.pki,
      certs: repos.pkiCerts,
      secrets: h().ctx.secrets,
      clock,
      audit: services.audit,
      transact,
      publicUrl: 'http://umbo.test',
    });
    const ca2 = createCaService({
      store: store2,
      pki: repos.pki,
      certs: repos.pkiCerts,
      clock,
      audit: services.audit,
      transact,
      siteTitle: 'umbo',
      validitiesOf: services.realmPolicy.settingsOf,
    });
    const account = { id: u.id, realmId, username: u.username };
    const results = await Promise.all([
      ...Array.from({ length: 25 }, () =>
        as(h(), u.token)
          .get(pkiPaths.ca)
          .then((r) => (r.body.data as CaView).id),
      ),
      ...Array.from({ length: 25 }, () => ca2.accountCa(account).then((c) => c.row.id)),
    ]);
    expect(new Set(results).size).toBe(1);
    const rows = await h().dbh.db.selectFrom('pki_cas').select('id').where('account_id', '=', u.id).execute();
    expect(rows).toHaveLength(1);
    const realmCas = await h().dbh.db.selectFrom('pki_cas').select('id').where('realm_id', '=', realmId).where('kind', '=', 'realm').execute();
    expect(realmCas).toHaveLength(1);
  });

  it('50 parallel key creations with one name → one key, the others 1108', async () => {
    const { api, u } = await readyUser();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.post(pkiPaths.keys, { name: 'same_name', description: 'raced key', algorithm: 'EC', strength: 'P-256' })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.body.code === 1108)).toHaveLength(49);
    const rows = await h().dbh.db.selectFrom('pki_keys').select('id').where('account_id', '=', u.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('issued certificates list with filters and paging', async () => {
    const { api, u } = await readyUser();
    const made: CertView[] = [];
    for (let i = 0; i < 3; i++) {
      h().clock.advance(1000);
      made.push(await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', `page-${i}`).csrPem, `page-${i}`));
    }
    const p1 = (await api.get(`${pkiPaths.certs}?limit=2`)).body.data;
    expect(p1.items.map((c: CertView) => c.cn)).toEqual(['page-2', 'page-1']);
    const p2 = (await api.get(`${pkiPaths.certs}?limit=2&cursor=${p1.next}`)).body.data;
    expect(p2.items.map((c: CertView) => c.cn)).toEqual(['page-0']);
    expect(p2.next).toBeNull();
    expect((await api.get(`${pkiPaths.certs}?cn=page-1`)).body.data.items).toHaveLength(1);
    expect((await api.get(`${pkiPaths.certs}?expiringWithinDays=400`)).body.data.items).toHaveLength(3);
    expect((await api.get(`${pkiPaths.certs}?expiringWithinDays=30`)).body.data.items).toHaveLength(0);
  });
});
