/**
 * CRL regeneration with many revoked entries (issue 13 "Bench"): the CRL encoder umbo runs inside
 * each revocation (apps/server/src/pki/crl-der.ts), on `count` entries with random 127-bit
 * serials and reasons, signed with an EC P-256 CA key made by openssl; openssl then checks the
 * signature and parses the list. Prints one JSON line: {count, ms, bytes}.
 * Run by scripts/bench/pki.mjs: node --import tsx scripts/bench/pki-crl.ts [count]
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeCrl, subjectOf, type CrlEntry } from '../../apps/server/src/pki/crl-der.js';

const count = Number(process.argv[2] ?? 100_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-crl-'));
try {
  const keyPath = path.join(dir, 'ca.key');
  const certPath = path.join(dir, 'ca.pem');
  const subj = ['-subj', '/CN=bench CA/O=umbo', '-days', '30'];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyPath, '-out', certPath, ...subj], {
    stdio: 'ignore',
  });
  const key = crypto.createPrivateKey(fs.readFileSync(keyPath));
  const der = Buffer.from(
    fs
      .readFileSync(certPath, 'utf8')
      .replace(/-----[^-]+-----/g, '')
      .replace(/\s+/g, ''),
    'base64',
  );
  // read once per CA, as the server keeps it (LoadedCa.subjectDer)
  const issuerSubjectDer = subjectOf(new Uint8Array(der));
  const now = Date.now();
  const entries: CrlEntry[] = Array.from({ length: count }, (_, i) => ({
    sn: (BigInt(`0x${crypto.randomBytes(16).toString('hex')}`) >> 1n).toString(),
    revokedAt: now - i * 1000,
    reason: i % 3 ? 'keyCompromise' : null,
  }));
  const runs: number[] = [];
  let crl = Buffer.alloc(0);
  for (let k = 0; k < 3; k++) {
    const t = performance.now();
    crl = encodeCrl({ issuerSubjectDer, keyIdHex: '00', crlNumber: k + 1, thisUpdate: now, nextUpdate: now + 7 * 864e5, entries, key });
    runs.push(performance.now() - t);
  }
  const crlPath = path.join(dir, 'big.crl');
  fs.writeFileSync(crlPath, crl);
  // throws unless the signature verifies and the list parses
  execFileSync('openssl', ['crl', '-inform', 'DER', '-in', crlPath, '-noout', '-CAfile', certPath], { stdio: 'ignore' });
  console.log(JSON.stringify({ count, ms: Math.min(...runs), bytes: crl.length }));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
