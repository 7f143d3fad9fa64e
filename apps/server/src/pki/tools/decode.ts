/**
 * View certificate / view CSR (tools): every field in a readable form, grouped as the console
 * shows them (contracts' decodedView). The core fields come from our DER reader (exact serial,
 * version, algorithm OIDs); names and extensions from @peculiar/x509. Unknown extensions are
 * shown as OID and hex, never dropped.
 */
import crypto from 'node:crypto';
import type { DecodedKey } from '@umbo/contracts';
import { ApiError, fail } from '../../platform/errors.js';
import { asn, x509 } from '../x509.js';
import { DerError, bigintOf, children, ctx, hexColons, intOf, oidOf, parse, seq, type Node } from './der.js';
import { EKU_NAMES, EXTENSION_NAMES, POLICY_NAMES, SIGNATURE_ALGORITHMS, keyFacts, named, verifySignature } from './names.js';
import { readCertificatePem, readCsrPem } from './pem.js';

export interface DecodedField {
  /** the console's phrase (cert.decoded_<key>); label is the English fallback */
  key?: DecodedKey;
  label: string;
  value: string;
}
export interface DecodedView {
  kind: 'certificate' | 'csr';
  groups: { key?: DecodedKey; title: string; fields: DecodedField[] }[];
}

const f = (label: string, value: string, key?: DecodedKey): DecodedField => (key ? { key, label, value } : { label, value });
const when = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const algorithmName = (alg: Node | undefined) => {
  const id = oidOf(seq(alg)[0]);
  return SIGNATURE_ALGORITHMS[id] ? `${SIGNATURE_ALGORITHMS[id].name} (${id})` : id;
};

const KEY_USAGES: [number, string][] = [
  [1, 'Digital signature'],
  [2, 'Non-repudiation'],
  [4, 'Key encipherment'],
  [8, 'Data encipherment'],
  [16, 'Key agreement'],
  [32, 'Certificate signing'],
  [64, 'CRL signing'],
  [128, 'Encipher only'],
  [256, 'Decipher only'],
];

const GENERAL_NAME_TYPES: Record<string, string> = { dns: 'DNS', dn: 'DirName', email: 'email', ip: 'IP', url: 'URI', guid: 'GUID', upn: 'UPN', id: 'RID' };
const generalNames = (names: readonly x509.GeneralName[]) => names.map((n) => `${GENERAL_NAME_TYPES[n.type] ?? n.type}: ${n.value}`).join(', ');

/** The readable value of one extension. */
function extensionValue(ext: x509.Extension): string {
  const hexValue = () => hexColons(new Uint8Array(ext.value));
  try {
    if (ext instanceof x509.BasicConstraintsExtension)
      return `CA: ${ext.ca ? 'TRUE' : 'FALSE'}${ext.pathLength !== undefined ? `, path length: ${ext.pathLength}` : ''}`;
    if (ext instanceof x509.KeyUsagesExtension)
      return (
        KEY_USAGES.filter(([bit]) => ext.usages & bit)
          .map(([, name]) => name)
          .join(', ') || '(none)'
      );
    if (ext instanceof x509.ExtendedKeyUsageExtension) return ext.usages.map((u) => named(EKU_NAMES, String(u))).join(', ');
    if (ext instanceof x509.SubjectAlternativeNameExtension || ext instanceof x509.IssuerAlternativeNameExtension) return generalNames(ext.names.items);
    if (ext instanceof x509.SubjectKeyIdentifierExtension) return hexColons(Buffer.from(ext.keyId, 'hex'));
    if (ext instanceof x509.AuthorityKeyIdentifierExtension) {
      const parts: string[] = [];
      if (ext.keyId) parts.push(`key id: ${hexColons(Buffer.from(ext.keyId, 'hex'))}`);
      if (ext.certId) parts.push(`issuer: ${generalNames(new x509.GeneralNames(ext.certId.name as never).items)}`, `serial: ${ext.certId.serialNumber}`);
      return parts.join('; ');
    }
    if (ext instanceof x509.CRLDistributionPointsExtension)
      return ext.distributionPoints
        .map((dp) => generalNames((dp.distributionPoint?.fullName ?? []).map((n) => new x509.GeneralName(n))) || '(relative name)')
        .join('; ');
    if (ext instanceof x509.AuthorityInfoAccessExtension) {
      const parts: string[] = [];
      if (ext.ocsp.length) parts.push(`OCSP: ${ext.ocsp.map((n) => n.value).join(', ')}`);
      if (ext.caIssuers.length) parts.push(`CA issuers: ${ext.caIssuers.map((n) => n.value).join(', ')}`);
      if (ext.timeStamping.length) parts.push(`Time stamping: ${ext.timeStamping.map((n) => n.value).join(', ')}`);
      if (ext.caRepository.length) parts.push(`CA repository: ${ext.caRepository.map((n) => n.value).join(', ')}`);
      return parts.join('; ');
    }
    if (ext instanceof x509.CertificatePolicyExtension) return ext.policies.map((p) => (POLICY_NAMES[p] ? `${POLICY_NAMES[p]} (${p})` : p)).join(', ');
  } catch {
    // a known extension with a malformed value: show its bytes as for an unknown one
  }
  return hexValue();
}

function extensionFields(exts: readonly x509.Extension[]): DecodedField[] {
  return exts.map((ext) => {
    const name = EXTENSION_NAMES[ext.type] ? `${EXTENSION_NAMES[ext.type]} (${ext.type})` : ext.type;
    return f(ext.critical ? `${name}, critical` : name, extensionValue(ext));
  });
}

function keyGroup(spki: Node) {
  const k = keyFacts(spki);
  const fields = [f('Algorithm', k.algorithm, 'algorithm')];
  if (k.bits !== null) fields.push(f('Size', `${k.bits} bits`, 'size'));
  if (k.curve) fields.push(f('Curve', k.curve, 'curve'));
  if (k.exponent) fields.push(f('Exponent', k.exponent, 'exponent'));
  fields.push(f('SHA-256 of the public key', hexColons(crypto.createHash('sha256').update(spki.raw).digest()), 'spki_sha256'));
  return { key: 'group_public_key' as const, title: 'Public key', fields };
}

const fingerprints = (der: Uint8Array) => ({
  key: 'group_fingerprints' as const,
  title: 'Fingerprints',
  fields: [f('SHA-1', hexColons(crypto.createHash('sha1').update(der).digest())), f('SHA-256', hexColons(crypto.createHash('sha256').update(der).digest()))],
});

/** Runs `read` on parsed input; anything that is not the expected structure is PEM_INVALID. */
function structured<T>(what: 'certificate' | 'csr', read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw fail('PEM_INVALID', { what, reason: what === 'csr' ? 'not_a_csr' : 'not_a_certificate' });
  }
}

export function decodeCertificate(pem: string, now: number): DecodedView {
  const der = readCertificatePem(pem);
  return structured('certificate', () => {
    const [tbs, sigAlg, sigBits] = seq(parse(der));
    if (!tbs || !sigAlg || !sigBits) throw new DerError('short certificate');
    const fields = seq(tbs);
    const hasVersion = fields[0]!.tag === ctx(0);
    const version = hasVersion ? intOf(children(fields[0]!)[0]) : 0;
    const [serialNode, , , , , spki] = fields.slice(hasVersion ? 1 : 0);
    if (!serialNode || !spki) throw new DerError('short certificate');
    const serial = bigintOf(serialNode);
    const cert = new x509.X509Certificate(asn(der));
    const selfIssued = cert.subject === cert.issuer;
    const verdict = selfIssued ? verifySignature(tbs.raw, sigAlg, sigBits, spki) : null;
    const status = now < cert.notBefore.getTime() ? 'not yet valid' : now > cert.notAfter.getTime() ? 'expired' : 'valid';
    const general = [
      f('Version', `${version + 1} (0x${version.toString(16)})`, 'version'),
      f('Serial number (decimal)', serial.toString(10), 'serial_decimal'),
      f('Serial number (hex)', hexColons(serialNode.value), 'serial_hex'),
      f('Signature algorithm', algorithmName(sigAlg), 'signature_algorithm'),
      f('Issuer', cert.issuer, 'issuer'),
      f('Subject', cert.subject, 'subject'),
      f('Not before', when(cert.notBefore), 'not_before'),
      f('Not after', when(cert.notAfter), 'not_after'),
      f('Status', status, 'status'),
      f(
        'Self-signed',
        selfIssued
          ? verdict === true
            ? 'yes (signature verifies)'
            : verdict === false
              ? 'issuer = subject, but the signature does not verify'
              : 'issuer = subject'
          : 'no',
        'self_signed',
      ),
    ];
    return {
      kind: 'certificate' as const,
      groups: [
        { key: 'group_certificate', title: 'Certificate', fields: general },
        keyGroup(spki),
        { key: 'group_extensions', title: 'Extensions', fields: extensionFields(cert.extensions) },
        fingerprints(der),
      ],
    };
  });
}

export function decodeCsr(pem: string): DecodedView {
  const der = readCsrPem(pem);
  return structured('csr', () => {
    const [info, sigAlg, sigBits] = seq(parse(der));
    if (!info || !sigAlg || !sigBits) throw new DerError('short request');
    const [versionNode, , spki] = seq(info);
    if (!spki) throw new DerError('short request');
    const csr = new x509.Pkcs10CertificateRequest(asn(der));
    const verdict = verifySignature(info.raw, sigAlg, sigBits, spki);
    const attributes = csr.attributes
      .filter((a) => a.type !== '1.2.840.113549.1.9.14')
      // a challenge password is a secret of the requester: its presence is shown, not its value
      .map((a) =>
        f(
          a.type === '1.2.840.113549.1.9.7' ? 'Challenge password (1.2.840.113549.1.9.7)' : a.type,
          a.type === '1.2.840.113549.1.9.7' ? '(present, not shown)' : hexColons(new Uint8Array(a.rawData)),
        ),
      );
    const general = [
      f('Version', `${intOf(versionNode) + 1} (0x${intOf(versionNode).toString(16)})`, 'version'),
      f('Subject', csr.subject, 'subject'),
      f('Signature algorithm', algorithmName(sigAlg), 'signature_algorithm'),
      f('Signature', verdict === true ? 'verifies' : verdict === false ? 'does NOT verify' : 'not checked (algorithm not supported)', 'signature'),
    ];
    const groups: DecodedView['groups'] = [
      { key: 'group_request', title: 'Request', fields: general },
      keyGroup(spki),
      { key: 'group_requested_extensions', title: 'Requested extensions', fields: extensionFields(csr.extensions) },
      ...(attributes.length ? [{ key: 'group_attributes' as const, title: 'Attributes', fields: attributes }] : []),
      fingerprints(der),
    ];
    return { kind: 'csr' as const, groups };
  });
}
