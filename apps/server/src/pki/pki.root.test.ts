/**
 * The platform root (issue 13): made once at the first start (open.ts), or the operator's own
 * from PKI_ROOT_CERT_FILE + PKI_ROOT_KEY_FILE — then the realm intermediates are signed by it
 * and openssl verifies our leaves up to that root. SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pkiPaths } from '@umbo/contracts';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, createRealm } from '../test/kit.js';
import { chainFiles, issueFromCsr, makeCsr, openssl, pkiUser, tmpDir, verifyWithOpenssl } from './pki.testkit.js';

const dir = tmpDir();
const certFile = path.join(dir, 'operator-root.pem');
const keyFile = path.join(dir, 'operator-root.key');
// an RSA root: the intermediates it signs use RSASSA-PKCS1-v1_5
openssl([
  'req',
  '-x509',
  '-newkey',
  'rsa:2048',
  '-nodes',
  '-keyout',
  keyFile,
  '-out',
  certFile,
  '-days',
  '3650',
  '-subj',
  '/CN=Operator Root/O=Example Factory',
  '-addext',
  'basicConstraints=critical,CA:TRUE',
  '-addext',
  'keyUsage=critical,keyCertSign,cRLSign',
]);

describeBothDbs(
  'pki imported platform root',
  (h) => {
    it('the operator’s root heads every chain; leaves verify to it; its key never leaves', async () => {
      const realmId = await createRealm(h());
      const u = await pkiUser(h(), realmId);
      const chain = await chainFiles(h(), u.token, dir);
      const flat = (pem: string) => pem.replace(/\s+/g, '');
      expect(flat(chain.pems[2]!)).toBe(flat(fs.readFileSync(certFile, 'utf8')));
      const cert = await issueFromCsr(h(), u.token, makeCsr(dir, 'ec256', 'imported-root-leaf').csrPem, 'imported-root-leaf');
      expect(verifyWithOpenssl(dir, chain, cert.certPem).out).toMatch(/: OK/);
      const admin = await h().login();
      const realmChain = await as(h(), admin).get(pkiPaths.realmChain(realmId));
      expect(realmChain.body.data.root).toMatchObject({ keyAlgorithm: 'RSA 2048', subject: expect.stringContaining('Operator Root') });
      expect(realmChain.text).not.toMatch(/PRIVATE KEY/);
    });
  },
  { PKI_ROOT_CERT_FILE: certFile, PKI_ROOT_KEY_FILE: keyFile },
);
