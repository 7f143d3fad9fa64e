/**
 * What a DER blob is (certificate, CSR, private or public key), told from its structure, and
 * the key helpers the conversions share. Keys are normalised through node:crypto, which also
 * refuses malformed ones.
 */
import crypto from 'node:crypto';
import { fail } from '../../platform/errors.js';
import { DerError, TAG, children, ctx, parse, seq } from './der.js';

export type ObjectKind = 'certificate' | 'csr' | 'privateKey' | 'publicKey';

/** Certificate and CertificationRequest are both SEQUENCE { info, algorithm, BIT STRING }; the info tells them apart. */
function signedKind(der: Uint8Array): 'certificate' | 'csr' | null {
  try {
    const [info, alg, sig, ...rest] = seq(parse(der));
    if (rest.length || info?.tag !== TAG.SEQUENCE || alg?.tag !== TAG.SEQUENCE || sig?.tag !== TAG.BIT_STRING) return null;
    const fields = children(info);
    // TBSCertificate: [0] version?, serial, signature, issuer, validity, subject, spki, …
    if (fields[0]!.tag === ctx(0) ? fields.length >= 7 : fields.length >= 6 && fields[0]!.tag === TAG.INTEGER) return 'certificate';
    // CertificationRequestInfo: version, subject, spki, [0] attributes
    if (fields.length === 4 && fields[0]!.tag === TAG.INTEGER && fields[3]!.tag === ctx(0)) return 'csr';
    return null;
  } catch (err) {
    if (err instanceof DerError) return null;
    throw err;
  }
}

export interface ParsedObject {
  kind: ObjectKind;
  /** certificates and CSRs as given; keys normalised to PKCS#8 / SPKI */
  der: Uint8Array;
}

const pkcs8Of = (key: crypto.KeyObject) => new Uint8Array(key.export({ type: 'pkcs8', format: 'der' }));
const spkiOf = (key: crypto.KeyObject) => new Uint8Array(key.export({ type: 'spki', format: 'der' }));

/** A DER object of any kind we convert; null when it is none of them. */
export function classifyDer(der: Uint8Array): ParsedObject | null {
  const signed = signedKind(der);
  if (signed) return { kind: signed, der };
  const buf = Buffer.from(der);
  for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
    try {
      return { kind: 'privateKey', der: pkcs8Of(crypto.createPrivateKey({ key: buf, format: 'der', type })) };
    } catch {
      // not this encoding: try the next
    }
  }
  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      return { kind: 'publicKey', der: spkiOf(crypto.createPublicKey({ key: buf, format: 'der', type })) };
    } catch {
      // not this encoding: try the next
    }
  }
  return null;
}

/** The kind a PEM label promises; the DER inside must then be that kind. */
export function kindOfLabel(label: string): ObjectKind | 'pkcs7' | 'encryptedKey' | null {
  if (label === 'CERTIFICATE') return 'certificate';
  if (label === 'CERTIFICATE REQUEST' || label === 'NEW CERTIFICATE REQUEST') return 'csr';
  if (label === 'PRIVATE KEY' || label === 'RSA PRIVATE KEY' || label === 'EC PRIVATE KEY') return 'privateKey';
  if (label === 'ENCRYPTED PRIVATE KEY') return 'encryptedKey';
  if (label === 'PUBLIC KEY' || label === 'RSA PUBLIC KEY') return 'publicKey';
  if (label === 'PKCS7' || label === 'CMS') return 'pkcs7';
  return null;
}

/** An encrypted PKCS#8 key, opened with the tool's password. */
export function decryptPkcs8(der: Uint8Array, password: string | undefined): Uint8Array {
  if (!password) throw fail('CONVERT_FAILED', { reason: 'password_required' });
  try {
    return pkcs8Of(crypto.createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8', passphrase: password }));
  } catch {
    throw fail('CONVERT_FAILED', { reason: 'password' });
  }
}

/** The SubjectPublicKeyInfo DER of a certificate or CSR. */
export function spkiOfSigned(der: Uint8Array): Uint8Array {
  const fields = children(seq(parse(der))[0]!);
  const spki = fields.length === 4 ? fields[2]! : fields[fields[0]!.tag === ctx(0) ? 6 : 5]!;
  return spki.raw;
}

/** The same public key, whatever the two encodings' incidental differences. */
export function samePublicKey(privatePkcs8: Uint8Array, spki: Uint8Array): boolean {
  try {
    const fromKey = spkiOf(crypto.createPublicKey(crypto.createPrivateKey({ key: Buffer.from(privatePkcs8), format: 'der', type: 'pkcs8' })));
    const fromCert = spkiOf(crypto.createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' }));
    return Buffer.compare(fromKey, fromCert) === 0;
  } catch {
    return false;
  }
}
