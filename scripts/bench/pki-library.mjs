/**
 * The yardstick of the issuance bench (issue 13 "Bench"): the bare library rate of what one
 * issuance must do — parse a PEM CSR, verify its signature, build and sign an EC P-256 leaf
 * with the same extensions umbo's profile carries, encode it as PEM — with @peculiar/x509 on
 * Node's WebCrypto, in one process on one core, no HTTP, no database.
 *
 * Prints one JSON line: {perSec, n}. Run by scripts/bench/pki.mjs, pinned like the server.
 * Standalone: node scripts/bench/pki-library.mjs [seconds]
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);
const subtle = webcrypto.subtle;
const seconds = Number(process.argv[2] ?? 3);
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

export async function makeCsrs(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const keys = await subtle.generateKey(EC, true, ['sign', 'verify']);
    const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: `CN=bench-device-${i}`, keys, signingAlgorithm: EC });
    out.push(csr.toString('pem'));
  }
  return out;
}

async function main() {
  const caKeys = await subtle.generateKey(EC, false, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=bench account CA',
    notBefore: new Date(),
    notAfter: new Date(Date.now() + 365 * 864e5),
    signingAlgorithm: EC,
    keys: caKeys,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true)],
  });
  const aki = await x509.AuthorityKeyIdentifierExtension.create(ca, false);
  const csrs = await makeCsrs(50);
  let n = 0;
  const once = async () => {
    const csr = new x509.Pkcs10CertificateRequest(csrs[n % csrs.length]);
    if (!(await csr.verify())) throw new Error('CSR did not verify');
    const serial = Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)));
    serial[0] &= 0x7f;
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serial.toString('hex'),
      subject: `CN=bench-device-${n}`,
      issuer: ca.subject,
      notBefore: new Date(),
      notAfter: new Date(Date.now() + 90 * 864e5),
      signingAlgorithm: EC,
      publicKey: csr.publicKey,
      signingKey: caKeys.privateKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
        await x509.SubjectKeyIdentifierExtension.create(csr.publicKey),
        aki,
        new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: `device-${n}.bench.test` }]),
      ],
    });
    cert.toString('pem');
    n++;
  };
  const warm = performance.now() + 1000;
  while (performance.now() < warm) await once();
  n = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  while (performance.now() < end) await once();
  const elapsed = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({ perSec: n / elapsed, n }));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
