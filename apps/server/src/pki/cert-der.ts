/**
 * Device and service certificates (RFC 5280 §4) written directly in DER and signed with
 * node:crypto. Over 95 % of the general-purpose library's issuance time was encoding (issue 13
 * "Bench"); the profile here is fixed (profile.ts documents it, CA-02), so writing it by hand is
 * short: cA=FALSE critical, key usage critical, EKU, SKI, AKI, SAN, CRL DP, AIA.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { extension, signatureOf, time } from './crl-der.js';
import type { IssuerUrls, KeyInfo, SanJson } from './profile.js';
import { children, explicit, integer, octets, oid, parse, sequence, TAG, tlv } from './tools/der.js';

const OIDS = {
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  subjectAltName: '2.5.29.17',
  crlDistributionPoints: '2.5.29.31',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  ocsp: '1.3.6.1.5.5.7.48.1',
  caIssuers: '1.3.6.1.5.5.7.48.2',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  commonName: '2.5.4.3',
} as const;

const TRUE = Uint8Array.of(TAG.BOOLEAN, 1, 0xff);
const critical = (id: string, value: Uint8Array) => sequence(oid(id), TRUE, octets(value));
const ascii = (s: string) => Buffer.from(s, 'ascii');
/** GeneralName uniformResourceIdentifier [6] IA5String */
const uri = (s: string) => tlv(0x86, ascii(s));

/** iPAddress: the four octets (issue.ts admits IPv4 only, SPEC §5). */
const ipBytes = (value: string) => Uint8Array.from(value.split('.').map(Number));

function generalName(e: SanJson): Uint8Array {
  switch (e.type) {
    case 'dns':
      return tlv(0x82, ascii(e.value));
    case 'email':
      return tlv(0x81, ascii(e.value));
    case 'url':
      return uri(e.value);
    case 'ip':
      return tlv(0x87, ipBytes(e.value));
  }
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING's bits. */
export function keyIdentifier(spkiDer: Uint8Array): Buffer {
  const [, bits] = children(parse(spkiDer));
  return crypto.createHash('sha1').update(bits!.value.subarray(1)).digest();
}

/** KeyUsage BIT STRING: digitalSignature (bit 0), plus keyEncipherment (bit 2) for RSA keys. */
const keyUsage = (rsa: boolean) => (rsa ? Uint8Array.of(TAG.BIT_STRING, 2, 5, 0xa0) : Uint8Array.of(TAG.BIT_STRING, 2, 7, 0x80));

// The extensions that never change, encoded once.
const BASIC_CONSTRAINTS = critical(OIDS.basicConstraints, sequence());
const KEY_USAGE = { rsa: critical(OIDS.keyUsage, keyUsage(true)), other: critical(OIDS.keyUsage, keyUsage(false)) };
const EKU = {
  device: extension(OIDS.extKeyUsage, sequence(oid(OIDS.clientAuth))),
  service: extension(OIDS.extKeyUsage, sequence(oid(OIDS.clientAuth), oid(OIDS.serverAuth))),
};

interface IssuerParts {
  sig: ReturnType<typeof signatureOf>;
  aki: Uint8Array;
  crlDp: Uint8Array;
  aia: Uint8Array;
}

/**
 * What every certificate of one issuer carries the same — signature algorithm, AKI, CRL and AIA
 * URLs — encoded once per CA signer (issue 13 bench: per certificate it was a third of the
 * encoding). Held by the signer's KeyObject, which the CA store keeps for the process.
 */
const issuerParts = new WeakMap<KeyObject, Map<string, IssuerParts>>();

function partsOf(signer: KeyObject, issuerKeyIdHex: string, urls: IssuerUrls): IssuerParts {
  let bySigner = issuerParts.get(signer);
  if (!bySigner) issuerParts.set(signer, (bySigner = new Map()));
  const key = `${issuerKeyIdHex} ${urls.crl} ${urls.ocsp} ${urls.caIssuers}`;
  let p = bySigner.get(key);
  if (!p) {
    p = {
      sig: signatureOf(signer),
      aki: extension(OIDS.authorityKeyId, sequence(tlv(0x80, Buffer.from(issuerKeyIdHex, 'hex')))),
      crlDp: extension(OIDS.crlDistributionPoints, sequence(sequence(tlv(0xa0, tlv(0xa0, uri(urls.crl)))))),
      aia: extension(OIDS.authorityInfoAccess, sequence(sequence(oid(OIDS.ocsp), uri(urls.ocsp)), sequence(oid(OIDS.caIssuers), uri(urls.caIssuers)))),
    };
    if (bySigner.size >= 100) bySigner.clear();
    bySigner.set(key, p);
  }
  return p;
}

const SUBJECT_KEY_ID = oid(OIDS.subjectKeyId);
const SUBJECT_ALT_NAME = oid(OIDS.subjectAltName);
const COMMON_NAME = oid(OIDS.commonName);
const VERSION_3 = explicit(0, integer(2));

export function encodeLeaf(a: {
  serialHex: string;
  /** the issuer's subject exactly as its certificate encodes it (LoadedCa.subjectDer) */
  issuerSubjectDer: Uint8Array;
  /** the issuer's key identifier (its SKI), hex */
  issuerKeyIdHex: string;
  notBefore: number;
  notAfter: number;
  cn: string;
  spkiDer: Uint8Array;
  key: KeyInfo;
  type: 'device' | 'service';
  san: SanJson[];
  urls: IssuerUrls;
  signer: KeyObject;
}): Buffer {
  const { sig, aki, crlDp, aia } = partsOf(a.signer, a.issuerKeyIdHex, a.urls);
  const extensions = [
    BASIC_CONSTRAINTS,
    a.key.algorithm === 'RSA' ? KEY_USAGE.rsa : KEY_USAGE.other,
    a.type === 'service' ? EKU.service : EKU.device,
    sequence(SUBJECT_KEY_ID, octets(octets(keyIdentifier(a.spkiDer)))),
    aki,
    ...(a.san.length ? [sequence(SUBJECT_ALT_NAME, octets(sequence(...a.san.map(generalName))))] : []),
    crlDp,
    aia,
  ];
  const subject = sequence(tlv(TAG.SET, sequence(COMMON_NAME, tlv(TAG.UTF8, Buffer.from(a.cn, 'utf8')))));
  const tbs = sequence(
    VERSION_3,
    tlv(TAG.INTEGER, Buffer.from(a.serialHex, 'hex')),
    sig.algorithmId,
    a.issuerSubjectDer,
    sequence(time(a.notBefore), time(a.notAfter)),
    subject,
    a.spkiDer,
    explicit(3, sequence(...extensions)),
  );
  return Buffer.from(sequence(tbs, sig.algorithmId, tlv(TAG.BIT_STRING, Uint8Array.of(0), crypto.sign(sig.hash, tbs, a.signer))));
}
