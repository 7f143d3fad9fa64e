/**
 * The OCSP responder through the real API (issue 13 "Tests": `openssl ocsp` gets good/revoked
 * answers): the app listens on a loopback port with PUBLIC_URL = that address, so the OCSP URL
 * written into an issued certificate's AIA is the one openssl dials. Certificates are issued
 * and revoked through the API; once per database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pkiPaths, type CaView, type CertView } from '@umbo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, DB_TARGETS, type Harness } from '../../test/harness.js';
import { as, createRealm, randomName } from '../../test/kit.js';
import { freePort } from '../../test/processes.js';
import { MASTER_REALM } from '../../perm/perm.service.js';
import { ocspQuery, openssl } from './ocsp.testkit.js';

interface Env {
  h: Harness & { dispose(): Promise<void> };
  base: string;
  token: string;
  dir: string;
  accountCa: CaView;
  intermediate: CaView;
  /** root + intermediate + account CA */
  chainPath: string;
  accountCaPath: string;
}

async function ok<T>(p: Promise<{ status: number; body: { data?: unknown } }>, what: string): Promise<T> {
  const r = await p;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data as T;
}

for (const target of DB_TARGETS) {
  describe(`OCSP responder through the API, judged by openssl [${target.dialect}]`, () => {
    const e = {} as Env;

    beforeAll(async () => {
      const port = await freePort();
      e.base = `http://127.0.0.1:${port}`;
      e.h = await createHarness(target, { PUBLIC_URL: e.base });
      // openssl checks thisUpdate/nextUpdate against the real clock
      e.h.clock.now = () => Date.now();
      await e.h.app.listen({ port, host: '127.0.0.1' });
      e.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-ocsp-api-'));
      e.token = await e.h.login();
      e.accountCa = await ok<CaView>(as(e.h, e.token).get(pkiPaths.ca), 'account CA');
      const chain = await ok<{ root: CaView; intermediate: CaView }>(as(e.h, e.token).get(pkiPaths.realmChain(MASTER_REALM)), 'realm chain');
      e.intermediate = chain.intermediate;
      e.chainPath = path.join(e.dir, 'chain.pem');
      fs.writeFileSync(e.chainPath, [chain.root.certPem, chain.intermediate.certPem, e.accountCa.certPem].map((p) => p.trim()).join('\n') + '\n');
      e.accountCaPath = path.join(e.dir, 'account-ca.pem');
      fs.writeFileSync(e.accountCaPath, e.accountCa.certPem);
      fs.writeFileSync(path.join(e.dir, 'intermediate.pem'), chain.intermediate.certPem);
    });

    afterAll(async () => {
      await e.h?.dispose();
      if (e.dir) fs.rmSync(e.dir, { recursive: true, force: true });
    });

    async function issue(): Promise<{ cert: CertView; certPath: string }> {
      const cn = randomName('dev-');
      const keyPath = path.join(e.dir, `${cn}.key`);
      const csrPath = path.join(e.dir, `${cn}.csr`);
      openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyPath, '-out', csrPath, '-subj', `/CN=${cn}`]);
      const cert = await ok<CertView>(
        as(e.h, e.token).post(pkiPaths.certs, { type: 'device', csrPem: fs.readFileSync(csrPath, 'utf8'), cnType: 'deviceId', cn }),
        'issue',
      );
      const certPath = path.join(e.dir, `${cn}.pem`);
      fs.writeFileSync(certPath, cert.certPem);
      return { cert, certPath };
    }

    it('the OCSP URL in the certificate (AIA) answers good; after revocation through the API, revoked with the reason', async () => {
      const { cert, certPath } = await issue();
      const url = openssl(['x509', '-in', certPath, '-noout', '-ocsp_uri']).out.trim();
      expect(url).toBe(`${e.base}${pkiPaths.publicOcsp(MASTER_REALM, e.accountCa.id)}`);

      const good = await ocspQuery({ issuerPath: e.accountCaPath, certPath, url, caFile: e.chainPath });
      expect(good.out).toContain('Response verify OK');
      expect(good.out).toContain(`${certPath}: good`);

      const revoked = await as(e.h, e.token).post(pkiPaths.certRevoke(cert.id), { reason: 'keyCompromise' });
      expect(revoked.status).toBe(200);
      const after = await ocspQuery({ issuerPath: e.accountCaPath, certPath, url, caFile: e.chainPath });
      expect(after.out).toContain('Response verify OK');
      expect(after.out).toContain(`${certPath}: revoked`);
      expect(after.out).toContain('Reason: keyCompromise');
      expect(after.out).toContain('Revocation Time:');
    });

    it('the realm intermediate answers for the account CA it issued; GET works as POST', async () => {
      const url = `${e.base}${pkiPaths.publicOcsp(MASTER_REALM, e.intermediate.id)}`;
      const r = await ocspQuery({ issuerPath: path.join(e.dir, 'intermediate.pem'), certPath: e.accountCaPath, url, caFile: e.chainPath });
      expect(r.out).toContain('Response verify OK');
      expect(r.out).toContain(`${e.accountCaPath}: good`);

      const { certPath } = await issue();
      const reqPath = path.join(e.dir, 'get-req.der');
      openssl(['ocsp', '-no_nonce', '-issuer', e.accountCaPath, '-cert', certPath, '-reqout', reqPath]);
      const ocspUrl = `${e.base}${pkiPaths.publicOcsp(MASTER_REALM, e.accountCa.id)}`;
      const res = await fetch(`${ocspUrl}/${encodeURIComponent(fs.readFileSync(reqPath).toString('base64'))}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/ocsp-response');
      const respPath = path.join(e.dir, 'get-resp.der');
      fs.writeFileSync(respPath, Buffer.from(await res.arrayBuffer()));
      const shown = openssl(['ocsp', '-respin', respPath, '-issuer', e.accountCaPath, '-cert', certPath, '-CAfile', e.chainPath], { allowFail: true });
      expect(shown.out).toContain('Response verify OK');
      expect(shown.out).toContain(`${certPath}: good`);
    });

    it('another realm in the path, or a CA id that does not exist: unauthorized, never a certificate status', async () => {
      const { certPath } = await issue();
      const otherRealm = await createRealm(e.h);
      for (const url of [`${e.base}${pkiPaths.publicOcsp(otherRealm, e.accountCa.id)}`, `${e.base}${pkiPaths.publicOcsp(MASTER_REALM, 'no-such-ca')}`]) {
        const r = await ocspQuery({ issuerPath: e.accountCaPath, certPath, url, caFile: e.chainPath });
        expect(r.out).toMatch(/Responder Error: unauthorized \(6\)/);
      }
    });

    it('garbage POSTed to the responder: malformedRequest, HTTP 200, no token needed', async () => {
      const res = await fetch(`${e.base}${pkiPaths.publicOcsp(MASTER_REALM, e.accountCa.id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request' },
        body: Buffer.from('garbage'),
      });
      expect(res.status).toBe(200);
      // OCSPResponse { responseStatus malformedRequest(1) }
      expect(Buffer.from(await res.arrayBuffer()).toString('hex')).toBe('30030a0101');
    });
  });
}
