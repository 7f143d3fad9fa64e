/**
 * "A device on the wire" (issue 13 "Tests"): a real Mosquitto judges what our CA issues.
 *
 * The broker (test/mosquitto.ts) listens with TLS on a loopback port, `require_certificate
 * true`, trusting the realm chain as our API answers it (platform root + realm intermediate +
 * the account CA) and our CRL. Its own server certificate comes from a throwaway openssl CA that
 * only the devices trust. A device with a certificate issued through the API (from an openssl
 * CSR: the device keeps its key) connects, subscribes and receives its own message; after
 * revocation through the API the test writes the fresh CRL and restarts the broker (Mosquitto
 * reads its CRL only at start) and the same device is refused while another still connects; a
 * self-signed certificate, one from a CA we did not issue and one from an impostor CA bearing
 * our account CA's name are refused.
 *
 * CRLs (found with Mosquitto 2.0.11 + OpenSSL 3.0): Mosquitto sets X509_V_FLAG_CRL_CHECK, not
 * …_CHECK_ALL, so only the CRL of the CA that issued the client certificate is consulted — and
 * required: a crlfile holding only the root's and the intermediate's CRLs refuses every client
 * ("certificate verify failed"). The account CA's CRL is what the crlfile holds; the CRLs of the
 * whole chain concatenated work as well.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pkiPaths, type CaView, type CertView } from '@umbo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, DB_TARGETS, type Harness } from '../test/harness.js';
import { as, randomName } from '../test/kit.js';
import { assertMosquittoInstalled, probeDevice, startMosquitto, type Broker } from '../test/mosquitto.js';
import { makeLeaf, makeRoot, openssl, type Made } from './ocsp/ocsp.testkit.js';
import { MASTER_REALM } from '../perm/perm.service.js';

interface Wire {
  h: Harness & { dispose(): Promise<void> };
  token: string;
  dir: string;
  broker: Broker;
  brokerCa: Made;
  accountCa: CaView;
  crlPath: string;
}

async function ok<T>(p: Promise<{ status: number; body: { data?: unknown } }>, what: string): Promise<T> {
  const r = await p;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data as T;
}

/** A device's key and CSR made by openssl, the certificate issued by our API. */
async function issueDevice(w: Wire, cn: string): Promise<{ cert: CertView; keyPem: string }> {
  const keyPath = path.join(w.dir, `${cn}.key`);
  const csrPath = path.join(w.dir, `${cn}.csr`);
  openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyPath, '-out', csrPath, '-subj', `/CN=${cn}`]);
  const cert = await ok<CertView>(
    as(w.h, w.token).post(pkiPaths.certs, { type: 'device', csrPem: fs.readFileSync(csrPath, 'utf8'), cnType: 'deviceId', cn, desc: 'on the wire' }),
    'issue',
  );
  return { cert, keyPem: fs.readFileSync(keyPath, 'utf8') };
}

/** The account CA's CRL as anyone fetches it (public, no token), written where the broker reads it. */
async function writeCrl(w: Wire): Promise<string> {
  const res = await w.h.app.inject({ method: 'GET', url: pkiPaths.publicCrlPem(MASTER_REALM, w.accountCa.id) });
  expect(res.statusCode).toBe(200);
  expect(res.body).toContain('-----BEGIN X509 CRL-----');
  fs.writeFileSync(w.crlPath, res.body);
  return res.body;
}

for (const target of DB_TARGETS) {
  describe(`A device on the wire: Mosquitto with our chain and CRL [${target.dialect}]`, () => {
    const w = {} as Wire;

    beforeAll(async () => {
      assertMosquittoInstalled();
      w.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-wire-'));
      w.h = await createHarness(target);
      // the broker and openssl check validity against the real clock
      w.h.clock.now = () => Date.now();
      w.token = await w.h.login();
      w.accountCa = await ok<CaView>(as(w.h, w.token).get(pkiPaths.ca), 'account CA');
      const chain = await ok<{ root: CaView; intermediate: CaView }>(as(w.h, w.token).get(pkiPaths.realmChain(MASTER_REALM)), 'realm chain');
      const cafile = path.join(w.dir, 'realm-chain.pem');
      fs.writeFileSync(cafile, [chain.root.certPem, chain.intermediate.certPem, w.accountCa.certPem].map((p) => p.trim()).join('\n') + '\n');
      w.brokerCa = makeRoot(w.dir, 'broker-ca');
      const server = makeLeaf(w.dir, w.brokerCa, 'broker', { server: true });
      w.crlPath = path.join(w.dir, 'crl.pem');
      await writeCrl(w);
      w.broker = await startMosquitto({ cafile, certfile: server.certPath, keyfile: server.keyPath, crlfile: w.crlPath });
    });

    afterAll(async () => {
      await w.broker?.stop();
      await w.h?.dispose();
      if (w.dir) fs.rmSync(w.dir, { recursive: true, force: true });
    });

    const probe = (certPem: string, keyPem: string) => probeDevice(w.broker.port, { certPem, keyPem, brokerCaPem: w.brokerCa.certPem });

    it('A-43 an issued device connects, publishes and receives; revoked through the API it is refused after the broker reloads our CRL', async () => {
      const device = await issueDevice(w, randomName('robot-'));
      const other = await issueDevice(w, randomName('robot-'));
      // `openssl verify` agrees with the broker's view of the chain
      const leafPath = path.join(w.dir, 'device.pem');
      fs.writeFileSync(leafPath, device.cert.certPem);
      expect(openssl(['verify', '-CAfile', path.join(w.dir, 'realm-chain.pem'), leafPath]).out).toContain(': OK');

      const before = await probe(device.cert.certPem, device.keyPem);
      expect(before, w.broker.log()).toMatchObject({ connected: true });

      const revoked = await as(w.h, w.token).post(pkiPaths.certRevoke(device.cert.id), { reason: 'keyCompromise' });
      expect(revoked.status).toBe(200);
      const crl = await writeCrl(w);
      const serialHex = BigInt(device.cert.sn).toString(16).toUpperCase();
      expect(openssl(['crl', '-noout', '-text'], { input: crl }).out).toMatch(new RegExp(`Serial Number: 0*${serialHex}`));

      // the broker still holds the old CRL until it restarts
      expect(await probe(device.cert.certPem, device.keyPem)).toMatchObject({ connected: true });
      await w.broker.restart();
      const after = await probe(device.cert.certPem, device.keyPem);
      expect(after).toMatchObject({ connected: false });
      expect(after.connected === false && after.error).toMatch(/certificate revoked/);
      // the broker is fine: the other device still gets through
      expect(await probe(other.cert.certPem, other.keyPem)).toMatchObject({ connected: true });
    });

    it('a self-signed device certificate is refused', async () => {
      const self = makeRoot(w.dir, 'self-signed-device', 'ec256', { selfSignedLeaf: true });
      const r = await probe(self.certPem, self.keyPem);
      expect(r).toMatchObject({ connected: false });
      expect(r.connected === false && r.error).toMatch(/unknown ca|certificate unknown|bad certificate/);
    });

    it('a device certificate from a CA we did not issue is refused, even one named like our account CA', async () => {
      const foreign = makeRoot(w.dir, 'foreign-ca');
      const foreignDevice = makeLeaf(w.dir, foreign, 'foreign-device');
      const r1 = await probe(foreignDevice.certPem, foreignDevice.keyPem);
      expect(r1).toMatchObject({ connected: false });
      expect(r1.connected === false && r1.error).toMatch(/unknown ca|certificate unknown|bad certificate/);

      // an impostor: our account CA's certificate re-signed with another key (same subject)
      const accountCaPath = path.join(w.dir, 'account-ca.pem');
      fs.writeFileSync(accountCaPath, w.accountCa.certPem);
      const impostorKey = path.join(w.dir, 'impostor.key');
      const impostorCert = path.join(w.dir, 'impostor.pem');
      openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', impostorKey]);
      openssl(['x509', '-in', accountCaPath, '-key', impostorKey, '-out', impostorCert]);
      expect(openssl(['x509', '-in', impostorCert, '-noout', '-subject']).out).toBe(openssl(['x509', '-in', accountCaPath, '-noout', '-subject']).out);
      const impostor: Made = {
        ...foreign,
        certPath: impostorCert,
        keyPath: impostorKey,
        certPem: fs.readFileSync(impostorCert, 'utf8'),
        keyPem: fs.readFileSync(impostorKey, 'utf8'),
      };
      const impostorDevice = makeLeaf(w.dir, impostor, 'impostor-device');
      const r2 = await probe(`${impostorDevice.certPem}${impostor.certPem}`, impostorDevice.keyPem);
      expect(r2).toMatchObject({ connected: false });
    });
  });
}
