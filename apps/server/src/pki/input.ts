/**
 * User-supplied PEM (issue 13, SPEC §5 "PEM only"): CSRs, certificates and chains, read through
 * the one PEM reader (tools/pem.ts). Every way input can be wrong is a clear 4xx code — empty
 * (1100/1101), not PEM / truncated / not the structure expected (1102 {what, reason}), a CSR
 * whose self-signature does not verify (1103, CA-03) — never a 500.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { fail } from '../platform/errors.js';
import { expectTag, oidOf, parse, seq, TAG } from './tools/der.js';
import { publicKeyOfSpki } from './profile.js';
import { PEM_LABELS, readCertificatePem, readCsrPem, readPemAll } from './tools/pem.js';
import { asn, x509 } from './x509.js';

/** Signature algorithms node:crypto verifies directly: OID → digest (null: Ed25519 signs the message itself). */
const CSR_SIGNATURES: Record<string, string | null> = {
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.3.101.112': null,
};

/**
 * A PEM CSR, its self-signature verified (proof of possession, CA-03); answers the requested key
 * (SubjectPublicKeyInfo DER) and, when node:crypto verified it, the key as a KeyObject, so the
 * key rules need not build it again. Read with the small DER reader and verified with
 * node:crypto — the issuance path's cost (issue 13 "Bench"); other algorithms (RSA-PSS …) go
 * through x509.
 */
export async function parseCsr(pem: string | undefined): Promise<{ spkiDer: Uint8Array; publicKey?: KeyObject }> {
  const der = readCsrPem(pem ?? '');
  let parts: { info: Uint8Array; spki: Uint8Array; algorithm: string; signature: Uint8Array };
  try {
    const [info, alg, sig] = seq(parse(der));
    const [, , spki] = seq(info);
    expectTag(spki, TAG.SEQUENCE);
    expectTag(sig, TAG.BIT_STRING);
    parts = { info: info!.raw, spki: spki.raw, algorithm: oidOf(seq(alg)[0]), signature: sig.value.subarray(1) };
  } catch {
    throw fail('PEM_INVALID', { what: 'csr', reason: 'not_a_csr' });
  }
  let ok = false;
  let publicKey: KeyObject | undefined;
  try {
    if (parts.algorithm in CSR_SIGNATURES) {
      publicKey = publicKeyOfSpki(parts.spki);
      ok = crypto.verify(CSR_SIGNATURES[parts.algorithm] ?? null, parts.info, publicKey, parts.signature);
    } else {
      ok = await new x509.Pkcs10CertificateRequest(asn(der)).verify();
    }
  } catch {
    ok = false;
  }
  if (!ok) throw fail('CSR_SIGNATURE');
  return publicKey ? { spkiDer: parts.spki, publicKey } : { spkiDer: parts.spki };
}

function parseCert(der: Uint8Array, what: 'certificate' | 'chain'): x509.X509Certificate {
  try {
    const cert = new x509.X509Certificate(asn(der));
    void cert.publicKey.rawData;
    void cert.serialNumber;
    return cert;
  } catch {
    throw fail('PEM_INVALID', { what, reason: 'not_a_certificate' });
  }
}

/** One PEM certificate. */
export function parseCertPem(pem: string | undefined): x509.X509Certificate {
  return parseCert(readCertificatePem(pem ?? ''), 'certificate');
}

/** Zero or more PEM certificates (a chain): an empty one is none. */
export function parseChainPem(pem: string): x509.X509Certificate[] {
  if (pem.trim() === '') return [];
  return readPemAll(pem, 'chain', PEM_LABELS.certificate).map((b) => parseCert(b.der, 'chain'));
}
