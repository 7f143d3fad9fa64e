/**
 * Readable names for the OIDs the viewer shows (signature algorithms, extensions, extended key
 * usages, policies) and the signature check of a certificate or CSR with node:crypto (which
 * knows Ed25519 and RSASSA-PSS, unlike some WebCrypto paths).
 */
import crypto from 'node:crypto';
import { DerError, TAG, children, ctx, intOf, oidOf, seq, type Node } from './der.js';

export const SIGNATURE_ALGORITHMS: Record<string, { name: string; hash: string | null }> = {
  '1.2.840.113549.1.1.4': { name: 'md5WithRSAEncryption', hash: 'md5' },
  '1.2.840.113549.1.1.5': { name: 'sha1WithRSAEncryption', hash: 'sha1' },
  '1.2.840.113549.1.1.14': { name: 'sha224WithRSAEncryption', hash: 'sha224' },
  '1.2.840.113549.1.1.11': { name: 'sha256WithRSAEncryption', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { name: 'sha384WithRSAEncryption', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { name: 'sha512WithRSAEncryption', hash: 'sha512' },
  '1.2.840.113549.1.1.10': { name: 'RSASSA-PSS', hash: null },
  '1.2.840.10045.4.1': { name: 'ecdsa-with-SHA1', hash: 'sha1' },
  '1.2.840.10045.4.3.1': { name: 'ecdsa-with-SHA224', hash: 'sha224' },
  '1.2.840.10045.4.3.2': { name: 'ecdsa-with-SHA256', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { name: 'ecdsa-with-SHA384', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { name: 'ecdsa-with-SHA512', hash: 'sha512' },
  '1.3.101.112': { name: 'Ed25519', hash: null },
  '1.3.101.113': { name: 'Ed448', hash: null },
};

export const EXTENSION_NAMES: Record<string, string> = {
  '2.5.29.19': 'Basic constraints',
  '2.5.29.15': 'Key usage',
  '2.5.29.37': 'Extended key usage',
  '2.5.29.17': 'Subject alternative name',
  '2.5.29.18': 'Issuer alternative name',
  '2.5.29.14': 'Subject key identifier',
  '2.5.29.35': 'Authority key identifier',
  '2.5.29.31': 'CRL distribution points',
  '1.3.6.1.5.5.7.1.1': 'Authority information access',
  '2.5.29.32': 'Certificate policies',
  '2.5.29.30': 'Name constraints',
  '2.5.29.36': 'Policy constraints',
  '2.5.29.54': 'Inhibit any policy',
  '1.3.6.1.4.1.11129.2.4.2': 'Signed certificate timestamps',
  '1.3.6.1.5.5.7.48.1.5': 'OCSP no check',
  '2.16.840.1.113730.1.1': 'Netscape certificate type',
  '2.16.840.1.113730.1.13': 'Netscape comment',
};

export const EKU_NAMES: Record<string, string> = {
  '1.3.6.1.5.5.7.3.1': 'TLS server authentication (serverAuth)',
  '1.3.6.1.5.5.7.3.2': 'TLS client authentication (clientAuth)',
  '1.3.6.1.5.5.7.3.3': 'Code signing (codeSigning)',
  '1.3.6.1.5.5.7.3.4': 'E-mail protection (emailProtection)',
  '1.3.6.1.5.5.7.3.8': 'Time stamping (timeStamping)',
  '1.3.6.1.5.5.7.3.9': 'OCSP signing (OCSPSigning)',
  '2.5.29.37.0': 'Any extended key usage',
};

export const POLICY_NAMES: Record<string, string> = {
  '2.5.29.32.0': 'anyPolicy',
  '2.23.140.1.2.1': 'CA/B Forum domain validated',
  '2.23.140.1.2.2': 'CA/B Forum organization validated',
  '2.23.140.1.2.3': 'CA/B Forum individual validated',
  '2.23.140.1.1': 'CA/B Forum extended validation',
};

export const CURVE_NAMES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521', secp256k1: 'secp256k1' };
const CURVE_BITS: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521, secp256k1: 256 };

export const named = (table: Record<string, string>, oidText: string) => (table[oidText] ? `${table[oidText]}` : oidText);

export interface KeyFacts {
  algorithm: string;
  bits: number | null;
  curve: string | null;
  exponent: string | null;
}

/** Algorithm, size and curve of a SubjectPublicKeyInfo; the OID when node does not know the algorithm. */
export function keyFacts(spki: Node): KeyFacts {
  try {
    const key = crypto.createPublicKey({ key: Buffer.from(spki.raw), format: 'der', type: 'spki' });
    const d = key.asymmetricKeyDetails ?? {};
    switch (key.asymmetricKeyType) {
      case 'rsa':
      case 'rsa-pss':
        return {
          algorithm: key.asymmetricKeyType === 'rsa' ? 'RSA' : 'RSASSA-PSS',
          bits: d.modulusLength ?? null,
          curve: null,
          exponent: d.publicExponent !== undefined ? String(d.publicExponent) : null,
        };
      case 'ec':
        return {
          algorithm: 'EC',
          bits: CURVE_BITS[d.namedCurve ?? ''] ?? null,
          curve: CURVE_NAMES[d.namedCurve ?? ''] ?? d.namedCurve ?? null,
          exponent: null,
        };
      case 'ed25519':
        return { algorithm: 'Ed25519', bits: 256, curve: null, exponent: null };
      case 'ed448':
        return { algorithm: 'Ed448', bits: 456, curve: null, exponent: null };
      default:
        return { algorithm: key.asymmetricKeyType ?? 'unknown', bits: null, curve: null, exponent: null };
    }
  } catch {
    return { algorithm: oidOf(seq(seq(spki)[0])[0]), bits: null, curve: null, exponent: null };
  }
}

/** RSASSA-PSS-params: hash ([0], default SHA-1) and salt length ([2], default 20). */
function pssParams(params: Node | undefined): { hash: string; saltLength: number } {
  const hashes: Record<string, string> = {
    '1.3.14.3.2.26': 'sha1',
    '2.16.840.1.101.3.4.2.1': 'sha256',
    '2.16.840.1.101.3.4.2.2': 'sha384',
    '2.16.840.1.101.3.4.2.3': 'sha512',
  };
  let hash = 'sha1';
  let saltLength = 20;
  if (params?.tag === TAG.SEQUENCE) {
    for (const p of children(params)) {
      if (p.tag === ctx(0)) hash = hashes[oidOf(seq(children(p)[0])[0])] ?? 'unknown';
      if (p.tag === ctx(2)) saltLength = intOf(children(p)[0]);
    }
  }
  if (hash === 'unknown') throw new DerError('unknown PSS hash');
  return { hash, saltLength };
}

/**
 * Whether `signature` over `tbs` verifies with `spki`: true / false, or null when the
 * algorithm is one we cannot check.
 */
export function verifySignature(tbs: Uint8Array, algorithmId: Node, signatureBits: Node, spki: Node): boolean | null {
  const [algOid, params] = seq(algorithmId);
  const alg = SIGNATURE_ALGORITHMS[oidOf(algOid)];
  if (!alg || alg.hash === 'md5') return null;
  if (signatureBits.value[0] !== 0) return false;
  const signature = signatureBits.value.subarray(1);
  try {
    const key = crypto.createPublicKey({ key: Buffer.from(spki.raw), format: 'der', type: 'spki' });
    if (alg.name === 'RSASSA-PSS') {
      const { hash, saltLength } = pssParams(params);
      return crypto.verify(hash, tbs, { key, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength }, signature);
    }
    return crypto.verify(alg.hash, tbs, key, signature);
  } catch {
    return false;
  }
}
