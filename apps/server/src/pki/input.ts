/**
 * User-supplied PEM (issue 13, SPEC §5 "PEM only"): CSRs, certificates and chains. Every way
 * input can be wrong is a clear 4xx code — empty (1100/1101), not PEM / truncated / not the
 * structure expected (1102 {what}), a CSR whose self-signature does not verify (1103, CA-03) —
 * never a 500.
 */
import crypto from 'node:crypto';
import { fail } from '../platform/errors.js';
import { expectTag, oidOf, parse, seq, TAG } from './tools/der.js';
import { asn, x509 } from './x509.js';

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([A-Za-z0-9+/=\r\n\t ]+?)-----END \1-----/g;

/** The DER of each PEM block labelled one of `labels`, in order; anything else in the text is refused. */
function blocks(text: string, labels: readonly string[], what: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  let rest = text;
  for (const m of text.matchAll(BLOCK)) {
    if (!labels.includes(m[1]!)) throw fail('PEM_INVALID', { what });
    const b64 = m[2]!.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) throw fail('PEM_INVALID', { what });
    out.push(new Uint8Array(Buffer.from(b64, 'base64')));
    rest = rest.replace(m[0], '');
  }
  // a truncated block (no END line), binary garbage or stray text between blocks
  if (rest.trim() !== '' || out.length === 0) throw fail('PEM_INVALID', { what });
  return out;
}

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
 * (SubjectPublicKeyInfo DER). Read with the small DER reader and verified with node:crypto —
 * the issuance path's cost (issue 13 "Bench"); other algorithms (RSA-PSS …) go through x509.
 */
export async function parseCsr(pem: string | undefined): Promise<{ spkiDer: Uint8Array }> {
  if (!pem || pem.trim() === '') throw fail('CSR_EMPTY');
  const ders = blocks(pem, ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST'], 'csr');
  if (ders.length !== 1) throw fail('PEM_INVALID', { what: 'csr' });
  const der = ders[0]!;
  let parts: { info: Uint8Array; spki: Uint8Array; algorithm: string; signature: Uint8Array };
  try {
    const [info, alg, sig] = seq(parse(der));
    const [, , spki] = seq(info);
    expectTag(spki, TAG.SEQUENCE);
    expectTag(sig, TAG.BIT_STRING);
    parts = { info: info!.raw, spki: spki.raw, algorithm: oidOf(seq(alg)[0]), signature: sig.value.subarray(1) };
  } catch {
    throw fail('PEM_INVALID', { what: 'csr' });
  }
  let ok = false;
  try {
    if (parts.algorithm in CSR_SIGNATURES) {
      const key = crypto.createPublicKey({ key: Buffer.from(parts.spki), format: 'der', type: 'spki' });
      ok = crypto.verify(CSR_SIGNATURES[parts.algorithm] ?? null, parts.info, key, parts.signature);
    } else {
      ok = await new x509.Pkcs10CertificateRequest(asn(der)).verify();
    }
  } catch {
    ok = false;
  }
  if (!ok) throw fail('CSR_SIGNATURE');
  return { spkiDer: parts.spki };
}

function parseCert(der: Uint8Array, what: string): x509.X509Certificate {
  try {
    const cert = new x509.X509Certificate(asn(der));
    void cert.publicKey.rawData;
    void cert.serialNumber;
    return cert;
  } catch {
    throw fail('PEM_INVALID', { what });
  }
}

/** One PEM certificate. */
export function parseCertPem(pem: string | undefined): x509.X509Certificate {
  if (!pem || pem.trim() === '') throw fail('CERT_EMPTY');
  const ders = blocks(pem, ['CERTIFICATE'], 'certificate');
  if (ders.length !== 1) throw fail('PEM_INVALID', { what: 'certificate' });
  return parseCert(ders[0]!, 'certificate');
}

/** Zero or more PEM certificates (a chain). */
export function parseChainPem(pem: string): x509.X509Certificate[] {
  if (pem.trim() === '') return [];
  return blocks(pem, ['CERTIFICATE'], 'chain').map((d) => parseCert(d, 'chain'));
}
