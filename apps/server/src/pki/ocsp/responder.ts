/**
 * OCSP responder (RFC 6960; issue 13): reads an OCSPRequest (DER), answers every CertID with
 * good / revoked (time + reason) / unknown in a BasicOCSPResponse signed by the issuing CA
 * itself — no delegated responder certificate, so the response carries no certs and names its
 * signer by key hash (§4.2.2.3 byKey). No HTTP here: ocsp.routes.ts carries the bytes.
 *
 * Every outcome is an OCSPResponse, never an exception: input we cannot read is
 * `malformedRequest`, a CA we do not know is `unauthorized` (RFC 5019 §2.2.3: not authoritative
 * for it), a failure of the store is `tryLater`. A CertID naming another issuer (its name/key
 * hashes are not this CA's), or with a hash algorithm we do not compute, is `unknown`.
 *
 * Where the CAs and statuses come from is the `OcspSource` interface: pki-core's services
 * implement it (composition), the tests implement it over openssl-made CAs.
 */
import crypto, { type KeyObject, type webcrypto } from 'node:crypto';
import type * as Asn1js from 'asn1js';
import type * as Pkijs from 'pkijs';
import type { RevokeReason } from '@umbo/contracts';
import type { Clock } from '../../platform/clock.js';
import { CRL_REASON_CODES } from '../profile.js';
import { asn } from '../x509.js';

/**
 * asn1js and pkijs are loaded on the first OCSP request, not at start: a server that answers
 * none never needs them, and they hold ~3 MB of heap for the life of the process (issue 12
 * memory budget). They are ES modules only, so `respond` (async) loads them once and the
 * synchronous helpers below use them from here.
 */
let asn1js: typeof Asn1js;
let pkijs: typeof Pkijs;
let loading: Promise<void> | undefined;
function loadLibraries(): Promise<void> {
  loading ??= Promise.all([import('asn1js'), import('pkijs')]).then(([a, p]) => {
    asn1js = a;
    pkijs = p;
  });
  return loading;
}

/** How long a response may be relied on (nextUpdate − thisUpdate): statuses are live, so short. */
export const OCSP_VALIDITY_MS = 60 * 60 * 1000;
/** CertIDs answered in one request; more is a malformed request, not work for us. */
export const OCSP_MAX_CERT_IDS = 50;
/** RFC 8954 §2.1: a nonce of 1–32 octets; anything else is malformedRequest. */
const NONCE_MAX = 32;

const OID = {
  basic: '1.3.6.1.5.5.7.48.1.1',
  nonce: '1.3.6.1.5.5.7.48.1.2',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  ecdsaSha384: '1.2.840.10045.4.3.3',
  ecdsaSha512: '1.2.840.10045.4.3.4',
  rsaSha256: '1.2.840.113549.1.1.11',
  ed25519: '1.3.101.112',
} as const;

/** CertID hash algorithms we compute (RFC 6960 §4.1.1; openssl asks SHA-1 by default). */
const CERT_ID_HASHES: Readonly<Record<string, string>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/** RFC 6960 §4.2.1 OCSPResponseStatus. */
export const OcspStatus = { successful: 0, malformedRequest: 1, internalError: 2, tryLater: 3, sigRequired: 5, unauthorized: 6 } as const;
export type OcspStatusName = keyof typeof OcspStatus;

export interface OcspCa {
  /** the CA's certificate, DER */
  certDer: Uint8Array;
  /** its private key: signs the response */
  privateKey: KeyObject | webcrypto.CryptoKey;
}

export type OcspCertStatus = { status: 'good' } | { status: 'revoked'; revokedAt: number; reason: RevokeReason | null } | { status: 'unknown' };

export interface OcspSource {
  /** the CA at (realmId, caId), undefined when there is none */
  ca(realmId: string, caId: string): Promise<OcspCa | undefined>;
  /** the status of the certificate `serial` (decimal) issued by that CA; unknown when it issued none */
  certStatus(realmId: string, caId: string, serial: string): Promise<OcspCertStatus>;
}

export interface OcspAnswer {
  /** the OCSPResponse, DER */
  der: Buffer;
  status: OcspStatusName;
  /** the request carried a nonce (the answer must not be cached) */
  nonce: boolean;
}

export interface OcspResponder {
  respond(realmId: string, caId: string, requestDer: Uint8Array): Promise<OcspAnswer>;
}

class Malformed extends Error {}

interface ParsedRequest {
  certIds: Pkijs.CertID[];
  /** the nonce extension as it came (extnValue), echoed as is */
  nonce?: Uint8Array;
}

/** RFC 8954: the extnValue is an OCTET STRING holding the nonce; some clients put raw bytes. */
function nonceLength(extnValue: Uint8Array): number {
  const inner = asn1js.fromBER(extnValue);
  if (inner.offset === extnValue.byteLength && inner.result instanceof asn1js.OctetString) return inner.result.valueBlock.valueHexView.byteLength;
  return extnValue.byteLength;
}

export function parseOcspRequest(der: Uint8Array): ParsedRequest {
  if (der.byteLength === 0) throw new Malformed('empty');
  const asn1 = asn1js.fromBER(der);
  // trailing bytes after the request are not a request we read
  if (asn1.offset === -1 || asn1.offset !== der.byteLength) throw new Malformed('not DER');
  let req: Pkijs.OCSPRequest;
  try {
    req = new pkijs.OCSPRequest({ schema: asn1.result });
  } catch {
    throw new Malformed('not an OCSPRequest');
  }
  const list = req.tbsRequest.requestList;
  if (list.length === 0 || list.length > OCSP_MAX_CERT_IDS) throw new Malformed('request list size');
  let nonce: Uint8Array | undefined;
  for (const ext of req.tbsRequest.requestExtensions ?? []) {
    if (ext.extnID !== OID.nonce) continue;
    const value = ext.extnValue.valueBlock.valueHexView;
    const n = nonceLength(value);
    if (n < 1 || n > NONCE_MAX) throw new Malformed('nonce length');
    nonce = new Uint8Array(value);
  }
  return { certIds: list.map((r) => r.reqCert), nonce };
}

/** What a CertID is compared with, and what the response's signer needs, from the CA certificate. */
interface CaFacts {
  subjectDer: Uint8Array;
  /** the subjectPublicKey BIT STRING's contents (RFC 6960 §4.1.1 issuerKeyHash input) */
  publicKeyBits: Uint8Array;
}

function caFacts(certDer: Uint8Array): CaFacts {
  const cert = pkijs.Certificate.fromBER(asn(certDer));
  return {
    // the bytes as they stand in the certificate: a re-encoding could differ from what was hashed
    subjectDer: new Uint8Array(cert.subject.toSchema().valueBeforeDecodeView),
    publicKeyBits: new Uint8Array(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
  };
}

const hash = (alg: string, data: Uint8Array) => crypto.createHash(alg).update(data).digest();

function issuedByThisCa(id: Pkijs.CertID, facts: CaFacts): boolean {
  const alg = CERT_ID_HASHES[id.hashAlgorithm.algorithmId];
  if (!alg) return false;
  return (
    Buffer.from(id.issuerNameHash.valueBlock.valueHexView).equals(hash(alg, facts.subjectDer)) &&
    Buffer.from(id.issuerKeyHash.valueBlock.valueHexView).equals(hash(alg, facts.publicKeyBits))
  );
}

/** The CertID's serial as a decimal string; undefined for zero or negative (never ours, CA-01). */
export function serialDecimal(id: Pkijs.CertID): string | undefined {
  const bytes = id.serialNumber.valueBlock.valueHexView;
  if (bytes.byteLength === 0 || bytes.byteLength > 21 || (bytes[0]! & 0x80) !== 0) return undefined;
  const n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  return n > 0n ? n.toString(10) : undefined;
}

/** GeneralizedTime without fractional seconds (RFC 5280 §4.1.2.5.2 style; OpenSSL prints it plainly). */
const time = (ms: number) => new asn1js.GeneralizedTime({ valueDate: new Date(Math.floor(ms / 1000) * 1000) });
const tagged = (tagNumber: number, value: Asn1js.AsnType[]) => new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber }, value });

function certStatusBlock(s: OcspCertStatus): Asn1js.AsnType {
  if (s.status === 'good') return new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } });
  if (s.status === 'unknown') return new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 2 } });
  const info: Asn1js.AsnType[] = [time(s.revokedAt)];
  // As in CRL entries (RFC 5280 §5.3.1), "unspecified" is said by leaving the reason out.
  if (s.reason && s.reason !== 'unspecified') info.push(tagged(0, [new asn1js.Enumerated({ value: CRL_REASON_CODES[s.reason] })]));
  return tagged(1, info);
}

/** The signature algorithm for the CA's key and how node:crypto signs with it. */
function signer(key: KeyObject): { algorithm: Asn1js.Sequence; sign(data: Uint8Array): Buffer } {
  const algId = (oid: string, params?: Asn1js.AsnType) =>
    new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: oid }), ...(params ? [params] : [])] });
  switch (key.asymmetricKeyType) {
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      const [oid, digest] =
        curve === 'secp384r1' ? [OID.ecdsaSha384, 'sha384'] : curve === 'secp521r1' ? [OID.ecdsaSha512, 'sha512'] : [OID.ecdsaSha256, 'sha256'];
      return { algorithm: algId(oid), sign: (d) => crypto.sign(digest, d, { key, dsaEncoding: 'der' }) };
    }
    case 'rsa':
      return { algorithm: algId(OID.rsaSha256, new asn1js.Null()), sign: (d) => crypto.sign('sha256', d, key) };
    case 'ed25519':
      return { algorithm: algId(OID.ed25519), sign: (d) => crypto.sign(null, d, key) };
    default:
      throw new Error(`OCSP: cannot sign with a ${key.asymmetricKeyType ?? 'unknown'} key`);
  }
}

/** An OCSPResponse without responseBytes: every status but successful (RFC 6960 §4.2.1). */
export function ocspError(status: Exclude<OcspStatusName, 'successful'>): Buffer {
  // SEQUENCE { ENUMERATED status }, written out: the routes answer it before any library is loaded
  return Buffer.from([0x30, 0x03, 0x0a, 0x01, OcspStatus[status]]);
}

interface BuildInput {
  ca: OcspCa;
  facts: CaFacts;
  certIds: Pkijs.CertID[];
  statuses: OcspCertStatus[];
  nonce?: Uint8Array;
  now: number;
}

/** The signed BasicOCSPResponse wrapped in a successful OCSPResponse. */
function buildOcspResponse(input: BuildInput): Buffer {
  const { facts } = input;
  const key = input.ca.privateKey instanceof crypto.KeyObject ? input.ca.privateKey : crypto.KeyObject.from(input.ca.privateKey);
  const { algorithm, sign } = signer(key);
  const responses = input.certIds.map(
    (id, i) =>
      new asn1js.Sequence({
        value: [id.toSchema(), certStatusBlock(input.statuses[i]!), time(input.now), tagged(0, [time(input.now + OCSP_VALIDITY_MS)])],
      }),
  );
  const tbsParts: Asn1js.AsnType[] = [
    tagged(2, [new asn1js.OctetString({ valueHex: hash('sha1', facts.publicKeyBits) })]),
    time(input.now),
    new asn1js.Sequence({ value: responses }),
  ];
  if (input.nonce) {
    const ext = new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID.nonce }), new asn1js.OctetString({ valueHex: input.nonce })] });
    tbsParts.push(tagged(1, [new asn1js.Sequence({ value: [ext] })]));
  }
  const tbs = new Uint8Array(new asn1js.Sequence({ value: tbsParts }).toBER(false));
  const basic = new asn1js.Sequence({
    value: [asn1js.fromBER(tbs).result, algorithm, new asn1js.BitString({ valueHex: sign(tbs) })],
  });
  const ocspResponse = new asn1js.Sequence({
    value: [
      new asn1js.Enumerated({ value: OcspStatus.successful }),
      tagged(0, [
        new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID.basic }), new asn1js.OctetString({ valueHex: basic.toBER(false) })] }),
      ]),
    ],
  });
  return Buffer.from(ocspResponse.toBER(false));
}

export interface ResponderDeps {
  source: OcspSource;
  clock: Clock;
  /** a failure of the store (logged without the request) */
  onError?: (err: unknown) => void;
}

export function createOcspResponder(deps: ResponderDeps): OcspResponder {
  const { source, clock } = deps;
  return {
    async respond(realmId, caId, requestDer) {
      await loadLibraries();
      let parsed: ParsedRequest;
      try {
        parsed = parseOcspRequest(requestDer);
      } catch {
        return { der: ocspError('malformedRequest'), status: 'malformedRequest', nonce: false };
      }
      const nonce = parsed.nonce !== undefined;
      try {
        const ca = await source.ca(realmId, caId);
        if (!ca) return { der: ocspError('unauthorized'), status: 'unauthorized', nonce };
        const facts = caFacts(ca.certDer);
        const statuses: OcspCertStatus[] = [];
        for (const id of parsed.certIds) {
          const serial = issuedByThisCa(id, facts) ? serialDecimal(id) : undefined;
          statuses.push(serial ? await source.certStatus(realmId, caId, serial) : { status: 'unknown' });
        }
        return { der: buildOcspResponse({ ca, facts, certIds: parsed.certIds, statuses, nonce: parsed.nonce, now: clock.now() }), status: 'successful', nonce };
      } catch (err) {
        deps.onError?.(err);
        return { der: ocspError('tryLater'), status: 'tryLater', nonce };
      }
    },
  };
}
