/**
 * Building blocks of what we sign (issue 13): serials (CA-01), key rules, signature algorithms,
 * the extension profile of CAs (CA-02; leaves: cert-der.ts, CRLs: crl-der.ts). No database, no HTTP.
 */
import crypto, { type KeyObject, type webcrypto } from 'node:crypto';
import type { KeyAlgorithm, RevokeReason } from '@umbo/contracts';
import { fail } from '../platform/errors.js';
import { EC_CURVES, RSA_MAX_BITS, RSA_MIN_BITS, SERIAL_OCTETS } from './defaults.js';
import { x509 } from './x509.js';

const subtle = crypto.webcrypto.subtle;

/** A fresh serial (CA-01): positive, 126 random bits, never a leading zero octet. Hex and decimal. */
export function newSerial(): { hex: string; decimal: string } {
  const b = crypto.randomBytes(SERIAL_OCTETS);
  b[0] = (b[0]! & 0x3f) | 0x40;
  const hex = b.toString('hex');
  return { hex, decimal: BigInt(`0x${hex}`).toString(10) };
}

export const sha256Hex = (data: ArrayBuffer | Uint8Array) => crypto.createHash('sha256').update(new Uint8Array(data)).digest('hex');

/** RFC 5280 §5.3.1 CRLReason values: the CRL's reasonCode and OCSP's revocationReason. */
export const CRL_REASON_CODES: Readonly<Record<RevokeReason, number>> = {
  unspecified: 0,
  keyCompromise: 1,
  cACompromise: 2,
  affiliationChanged: 3,
  superseded: 4,
  cessationOfOperation: 5,
  certificateHold: 6,
  privilegeWithdrawn: 9,
  aACompromise: 10,
};

export interface KeyInfo {
  algorithm: KeyAlgorithm;
  /** '2048', 'P-256', 'Ed25519' */
  strength: string;
}

const CURVE_NAMES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** SubjectPublicKeyInfo of an uncompressed EC point on a named curve (RFC 5480): all but the coordinates. */
const EC_SPKI = [
  { crv: 'P-256', size: 32, head: Buffer.from('3059301306072a8648ce3d020106082a8648ce3d03010703420004', 'hex') },
  { crv: 'P-384', size: 48, head: Buffer.from('3076301006072a8648ce3d020106052b8104002203620004', 'hex') },
];

/**
 * A SubjectPublicKeyInfo (DER) as a KeyObject. The usual EC P-256/P-384 form goes in as its
 * coordinates (JWK): OpenSSL 3 decodes a DER SPKI through its generic decoder chain at ~270 µs,
 * the coordinates take ~85 µs — an eighth of an issuance's CPU (issue 13 bench). OpenSSL checks
 * the point is on the curve either way; every other form takes the DER path.
 */
export function publicKeyOfSpki(spki: Uint8Array): KeyObject {
  const der = Buffer.from(spki.buffer, spki.byteOffset, spki.byteLength);
  for (const e of EC_SPKI) {
    if (der.length !== e.head.length + 2 * e.size || !der.subarray(0, e.head.length).equals(e.head)) continue;
    const x = der.subarray(e.head.length, e.head.length + e.size).toString('base64url');
    const y = der.subarray(e.head.length + e.size).toString('base64url');
    return crypto.createPublicKey({ key: { kty: 'EC', crv: e.crv, x, y }, format: 'jwk' });
  }
  return crypto.createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
}

/**
 * What a SubjectPublicKeyInfo (DER, or already a KeyObject) holds, checked against the keys we
 * sign (RSA 2048–8192, EC P-256/P-384, Ed25519): anything else is KEY_REJECTED with the algorithm named.
 */
export function keyInfoOf(spki: ArrayBuffer | Uint8Array | KeyObject): KeyInfo {
  let key: KeyObject;
  try {
    key = spki instanceof crypto.KeyObject ? spki : publicKeyOfSpki(new Uint8Array(spki));
  } catch {
    throw fail('KEY_REJECTED', { algorithm: 'unknown' });
  }
  const type = key.asymmetricKeyType;
  const d = key.asymmetricKeyDetails ?? {};
  if (type === 'rsa') {
    const bits = d.modulusLength ?? 0;
    if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS) throw fail('KEY_REJECTED', { algorithm: `RSA ${bits}` });
    return { algorithm: 'RSA', strength: String(bits) };
  }
  if (type === 'ec') {
    const curve = CURVE_NAMES[d.namedCurve ?? ''] ?? d.namedCurve ?? 'unknown';
    if (!(EC_CURVES as readonly string[]).includes(curve)) throw fail('KEY_REJECTED', { algorithm: `EC ${curve}` });
    return { algorithm: 'EC', strength: curve };
  }
  if (type === 'ed25519') return { algorithm: 'Ed25519', strength: 'Ed25519' };
  throw fail('KEY_REJECTED', { algorithm: type ?? 'unknown' });
}

export interface Signer {
  cryptoKey: webcrypto.CryptoKey;
  keyObject: KeyObject;
  /** what X509CertificateGenerator / X509CrlGenerator are told */
  algorithm: { name: string; hash?: string };
  /** 'EC P-256', 'RSA 2048' */
  label: string;
}

/** A CA's private key (PKCS#8 PEM) as a signer: EC → ECDSA with the curve's hash, RSA → PKCS#1 v1.5 SHA-256. */
export async function signerFromPkcs8(pem: string): Promise<Signer> {
  const keyObject = crypto.createPrivateKey(pem);
  const der = keyObject.export({ format: 'der', type: 'pkcs8' });
  const d = keyObject.asymmetricKeyDetails ?? {};
  if (keyObject.asymmetricKeyType === 'ec') {
    const curve = CURVE_NAMES[d.namedCurve ?? ''];
    if (curve !== 'P-256' && curve !== 'P-384') throw new Error(`CA key curve ${d.namedCurve} is not supported`);
    const hash = curve === 'P-384' ? 'SHA-384' : 'SHA-256';
    const cryptoKey = await subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: curve }, false, ['sign']);
    return { cryptoKey, keyObject, algorithm: { name: 'ECDSA', hash }, label: `EC ${curve}` };
  }
  if (keyObject.asymmetricKeyType === 'rsa') {
    const cryptoKey = await subtle.importKey('pkcs8', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
    return { cryptoKey, keyObject, algorithm: { name: 'RSASSA-PKCS1-v1_5' }, label: `RSA ${d.modulusLength}` };
  }
  throw new Error(`CA key type ${keyObject.asymmetricKeyType} is not supported`);
}

/** A new CA key pair, EC on `curve`: PKCS#8 PEM of the private key and the SPKI DER of the public one. */
export async function newCaKey(curve: 'P-256' | 'P-384'): Promise<{ pkcs8Pem: string; spkiDer: Buffer }> {
  const { privateKey, publicKey } = await new Promise<{ privateKey: KeyObject; publicKey: KeyObject }>((resolve, reject) =>
    crypto.generateKeyPair('ec', { namedCurve: curve }, (err, pub, priv) => (err ? reject(err) : resolve({ privateKey: priv, publicKey: pub }))),
  );
  return { pkcs8Pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), spkiDer: publicKey.export({ format: 'der', type: 'spki' }) };
}

/** The SubjectKeyIdentifier of a certificate, or the SHA-1 key identifier x509 computes for it. */
export async function keyIdOf(cert: x509.X509Certificate): Promise<string> {
  const ski = cert.getExtension(x509.SubjectKeyIdentifierExtension);
  if (ski) return ski.keyId;
  return (await x509.SubjectKeyIdentifierExtension.create(cert.publicKey)).keyId;
}

export interface IssuerUrls {
  crl: string;
  caIssuers: string;
  ocsp: string;
}

/** Extensions every certificate we sign under a CA carries: AKI and the issuer's URLs. */
function issuerExtensions(issuerKeyId: string, urls: IssuerUrls): x509.Extension[] {
  return [
    new x509.AuthorityKeyIdentifierExtension(issuerKeyId),
    new x509.CRLDistributionPointsExtension([urls.crl]),
    new x509.AuthorityInfoAccessExtension({ caIssuers: urls.caIssuers, ocsp: urls.ocsp }),
  ];
}

/** CA-02: cA=TRUE critical, keyCertSign + cRLSign critical, pathLen as the chain below needs. */
export async function caExtensions(spkiDer: ArrayBuffer | Uint8Array, pathLen: number | undefined, issuer?: { keyId: string; urls: IssuerUrls }) {
  return [
    new x509.BasicConstraintsExtension(true, pathLen, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    await x509.SubjectKeyIdentifierExtension.create(new x509.PublicKey(new Uint8Array(spkiDer))),
    ...(issuer ? issuerExtensions(issuer.keyId, issuer.urls) : []),
  ];
}

/** A leaf's subject as x509.Name writes it (RFC 4514); a plain CN needs no escaping (x509.Name cost ~50 µs an issuance). */
export const subjectText = (cn: string) => (/^[\w.:@-]+$/.test(cn) ? `CN=${cn}` : new x509.Name([{ CN: [cn] }]).toString());

export type SanJson = { type: 'dns' | 'ip' | 'email' | 'url'; value: string };

/** PEM of DER bytes with a label. */
export function pemOf(label: string, der: ArrayBuffer | Uint8Array): string {
  const b64 = Buffer.from(new Uint8Array(der)).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END ${label}-----\n`;
}
