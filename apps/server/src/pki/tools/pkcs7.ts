/**
 * Certificates-only PKCS#7 (RFC 2315 §9 / RFC 5652 §5, "degenerate" SignedData: no content, no
 * signers), the .p7b that Windows and most devices take for a chain. pki-core imports
 * `pkcs7Of` for the CA chain download.
 */
import { DerError, TAG, children, ctx, explicit, expectTag, integer, oid, oidOf, parse, sequence, seq, setOf, tlv } from './der.js';

const OID_DATA = '1.2.840.113549.1.7.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';

/** DER ContentInfo { signedData { version 1, no digest algorithms, data, certificates, no signers } }. */
export function pkcs7Of(certsDer: Uint8Array[]): Uint8Array {
  const signedData = sequence(
    integer(1),
    setOf(),
    sequence(oid(OID_DATA)),
    // [0] IMPLICIT SET OF Certificate: the order given (leaf first) is kept, not DER-sorted,
    // as openssl does — readers show the chain in that order
    tlv(ctx(0), ...certsDer),
    setOf(),
  );
  return sequence(oid(OID_SIGNED_DATA), explicit(0, signedData));
}

/** The certificates of a PKCS#7 SignedData (DER), in the file's order. Throws DerError if it is not one. */
export function certsOfPkcs7(der: Uint8Array): Uint8Array[] {
  const [type, content] = seq(parse(der));
  if (oidOf(type) !== OID_SIGNED_DATA) throw new DerError('not a PKCS#7 SignedData');
  expectTag(content, ctx(0));
  const [signedData] = children(content);
  const fields = seq(signedData);
  const certs = fields.find((f) => f.tag === ctx(0));
  if (!certs) return [];
  // ExtendedCertificateOrCertificate: only plain certificates (SEQUENCE) are answered
  return children(certs)
    .filter((c) => c.tag === TAG.SEQUENCE)
    .map((c) => new Uint8Array(c.raw));
}
