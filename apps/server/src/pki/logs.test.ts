/**
 * A-33 "never logged" for the device CA (issue 13): a whole run — a managed key generated with
 * its private key answered once, a certificate issued from it and one from a CSR, a revocation,
 * certificate + key → PKCS#12 with a password, the PKCS#12 back to PEM with the right and a
 * wrong password — against the real app with its log captured at the most verbose level. No
 * private key, PKCS#12 password or session token may appear in any line.
 */
import { pkiPaths } from '@umbo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, DB_TARGETS, type Harness } from '../test/harness.js';
import { as, createRealm, settled } from '../test/kit.js';
import { issueFromCsr, makeCsr, pkiUser, tmpDir } from './pki.testkit.js';

const P12_PASSWORD = 'P12-Log-Secret-7731';
const WRONG_PASSWORD = 'P12-Wrong-Secret-7732';
/** the base64 body of a PEM, in 64-character lines as it is printed */
const bodyLines = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'));

for (const target of DB_TARGETS) {
  describe(`issue 13: the CA's secrets never reach the log [${target.dialect}]`, () => {
    const lines: string[] = [];
    let h: Harness & { dispose(): Promise<void> };
    beforeAll(async () => {
      h = await createHarness(target, { LOG_LEVEL: 'trace' }, { logDestination: { write: (s: string) => void lines.push(s) } });
    });
    afterAll(async () => h?.dispose());

    it('A-33 key generation, issuance, revocation and PKCS#12 conversion: no private key, password or token in the log', async () => {
      const realmId = await createRealm(h);
      const user = await pkiUser(h, realmId);
      const api = as(h, user.token);

      const key = await api.post(pkiPaths.keys, {
        name: 'log_key',
        description: 'a key for the log test',
        algorithm: 'EC',
        strength: 'P-256',
        returnPrivateKey: true,
      });
      expect(key.status, key.text).toBe(200);
      const keyPem = key.body.data.keyPem as string;
      expect(keyPem).toContain('PRIVATE KEY');
      const fromKey = await api.post(pkiPaths.certs, { keyId: key.body.data.id, cnType: 'deviceId', cn: 'log-device-1' });
      expect(fromKey.status, fromKey.text).toBe(200);
      const certPem = fromKey.body.data.certPem as string;

      const dir = tmpDir();
      const csr = makeCsr(dir, 'ec256', 'log-device-2');
      const fromCsr = await issueFromCsr(h, user.token, csr.csrPem, 'log-device-2');
      expect((await api.post(pkiPaths.certRevoke(fromCsr.id), { reason: 'keyCompromise' })).status).toBe(200);

      const p12 = await api.post(pkiPaths.convert, { from: 'pem', to: 'pkcs12', input: certPem, keyPem, password: P12_PASSWORD });
      expect(p12.status, p12.text).toBe(200);
      const back = await api.post(pkiPaths.convert, { from: 'pkcs12', to: 'pem', input: p12.body.data.base64, password: P12_PASSWORD });
      expect(back.status, back.text).toBe(200);
      expect(back.body.data.text).toContain('PRIVATE KEY');
      const wrong = await api.post(pkiPaths.convert, { from: 'pkcs12', to: 'pem', input: p12.body.data.base64, password: WRONG_PASSWORD });
      expect(wrong.body.code).toBe(1113);
      await settled(h);

      const log = lines.join('');
      expect(log).toContain(pkiPaths.convert);
      expect(log).not.toContain('PRIVATE KEY');
      const secrets = [P12_PASSWORD, WRONG_PASSWORD, user.token, ...bodyLines(keyPem)];
      expect(secrets.filter((s) => log.includes(s) || log.includes(encodeURIComponent(s)))).toEqual([]);
    });
  });
}
