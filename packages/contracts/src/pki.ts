/**
 * The device certificate authority (SPEC §2–§3 cert pages, DESIGN.md §4 "PKI"; issue 13): CAs,
 * keys, certificates, issue records and tools, as the API, the console's forms and the tests
 * check them.
 *
 * Doors (cert service, SPEC §7 base /api/cert):
 *   - the caller's own account:  /api/cert/ca, /keys, /certs, /records, /tools  (keys.*, certList.*,
 *     certRecord.*, tools.*, cert.* in the caller's realm; always the caller's own account CA)
 *   - a realm's administrators: /api/cert/realms/:realmId/…  (domainCert.* in that realm): the
 *     realm's chain and the account root certificates of its accounts, the expiry inventory
 *   - public, unauthenticated:   /pki/realms/:realmId/cas/:caId.crt|.crl|.crl.pem and …/ocsp
 *
 * Times are epoch milliseconds (SPEC §3 "…Ts"); serial numbers are decimal strings (SPEC §5
 * "Serial number numeric").
 */
import { z } from 'zod';
import { SERIAL_NUMBER } from './checks.js';
import { zDescription, zKeyName } from './rules.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export const PKI_LIMITS = {
  /** "not under one month" (issue 13): CA validities and the maximum issuance period */
  minPeriodDays: 30,
  /** 30 years: nothing we sign outlives this */
  maxPeriodDays: 30 * 365,
  /** a pasted or uploaded PEM (CSR, certificate, chain) */
  pemMaxBytes: 64 * 1024,
  /** tools: converted input (PKCS#12 / PKCS#7 / DER, base64 in JSON) */
  toolInputMaxBytes: 256 * 1024,
  sanEntriesMax: 50,
  cnMax: 64,
  listLimitMax: 100,
  expiringWithinDaysMax: 3650,
  pkcs12PasswordMin: 4,
  pkcs12PasswordMax: 128,
  dayMs: DAY_MS,
} as const;

// --- keys -------------------------------------------------------------------------------

/** SPEC §3 "Key": algorithm and strength. Ed25519 only for leaf keys (issue 13). */
export const KEY_ALGORITHMS = ['RSA', 'EC', 'Ed25519'] as const;
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number];
export const KEY_STRENGTHS: Readonly<Record<KeyAlgorithm, readonly string[]>> = {
  RSA: ['2048', '3072', '4096'],
  EC: ['P-256', 'P-384'],
  Ed25519: ['Ed25519'],
};

export const keyCreateBody = z
  .object({
    name: zKeyName,
    description: zDescription,
    algorithm: z.enum(KEY_ALGORITHMS),
    strength: z.string(),
    /** answer the private key (PKCS#8 PEM) this once; it is never answered again */
    returnPrivateKey: z.boolean().default(false),
  })
  .strict()
  .refine((b) => KEY_STRENGTHS[b.algorithm].includes(b.strength), { message: 'validation.key_strength', path: ['strength'] });
export type KeyCreateBody = z.infer<typeof keyCreateBody>;

export const keyView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  algorithm: z.enum(KEY_ALGORITHMS),
  strength: z.string(),
  /** SHA-256 of the SubjectPublicKeyInfo, hex */
  fingerprint: z.string(),
  publicKeyPem: z.string(),
  /** valid (not revoked, not expired) certificates that use this key: delete is refused while > 0 */
  validCertCount: z.number(),
  createdAt: z.number(),
});
export type KeyView = z.infer<typeof keyView>;
export const keyCreated = keyView.extend({ keyPem: z.string().optional() });
export const keyList = z.object({ items: z.array(keyView) });
export const keyParams = z.object({ keyId: z.string().min(1).max(64) });

// --- certificates -----------------------------------------------------------------------

/** SPEC §3 "cn (common name type with SAN entries)" */
export const CN_TYPES = ['deviceId', 'dns', 'ip', 'email'] as const;
export type CnType = (typeof CN_TYPES)[number];
export const SAN_TYPES = ['dns', 'ip', 'email', 'uri'] as const;
export type SanType = (typeof SAN_TYPES)[number];
export const sanEntry = z.object({ type: z.enum(SAN_TYPES), value: z.string().min(1).max(253) }).strict();
export type SanEntry = z.infer<typeof sanEntry>;

export const CERT_TYPES = ['device', 'service', 'accountCa', 'realmCa', 'rootCa'] as const;
export type CertType = (typeof CERT_TYPES)[number];
/**
 * caRevoked: the certificate itself is not revoked, but a CA above it is (an account CA the
 * realm revoked): relying parties refuse its chain. Its own revocation shows as `revoked`.
 */
export const CERT_STATUSES = ['valid', 'expired', 'revoked', 'caRevoked', 'pending'] as const;
export type CertStatus = (typeof CERT_STATUSES)[number];

/** RFC 5280 §5.3.1 CRLReason names a user may choose (removeFromCRL and value 7 excluded). */
export const REVOKE_REASONS = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'privilegeWithdrawn',
  'aACompromise',
] as const;
export type RevokeReason = (typeof REVOKE_REASONS)[number];

/**
 * Issue (SPEC §2 "certificate issue"): from a PEM CSR or from a managed key. The subject's CN
 * comes from `cn`; SANs from `san` only (CSR-requested extensions are never copied, CA-02).
 */
export const certIssueBody = z
  .object({
    type: z.enum(['device', 'service']).default('device'),
    csrPem: z.string().max(PKI_LIMITS.pemMaxBytes).optional(),
    keyId: z.string().max(64).optional(),
    cnType: z.enum(CN_TYPES),
    cn: z.string().min(1).max(PKI_LIMITS.cnMax),
    san: z.array(sanEntry).max(PKI_LIMITS.sanEntriesMax).default([]),
    /** default: now */
    notBeforeTs: z.number().int().optional(),
    /** default: now + the CA's defaultIssueValidPeriod; never past its maximum */
    expireAtTs: z.number().int().optional(),
    desc: z.string().max(200).default(''),
  })
  .strict()
  .refine((b) => (b.csrPem === undefined) !== (b.keyId === undefined), { message: 'validation.csr_or_key', path: ['csrPem'] });
export type CertIssueBody = z.infer<typeof certIssueBody>;

export const certRevokeBody = z.object({ reason: z.enum(REVOKE_REASONS) }).strict();

/** Set cert / complete: attach an externally issued certificate to a managed key. */
export const setCertBody = z
  .object({
    certPem: z.string().max(PKI_LIMITS.pemMaxBytes),
    /** intermediates up to (not necessarily including) a root, PEM */
    chainPem: z.string().max(PKI_LIMITS.pemMaxBytes).default(''),
    allowUnknownCa: z.boolean().default(false),
    desc: z.string().max(200).default(''),
  })
  .strict();

export const certView = z.object({
  id: z.string(),
  type: z.enum(CERT_TYPES),
  cnType: z.enum(CN_TYPES).nullable(),
  cn: z.string(),
  san: z.array(sanEntry),
  status: z.enum(CERT_STATUSES),
  revokeStatus: z.object({ revoked: z.boolean(), reason: z.enum(REVOKE_REASONS).nullable(), revokedAtTs: z.number().nullable() }),
  notBeforeTs: z.number(),
  expireAtTs: z.number(),
  /** decimal */
  sn: z.string(),
  keyId: z.string().nullable(),
  keyName: z.string().nullable(),
  desc: z.string(),
  issuer: z.string(),
  subject: z.string(),
  /** SHA-256 of the DER certificate, hex */
  fingerprint: z.string(),
  /** issued by a CA of ours (false: set cert with "allow unknown CA") */
  ours: z.boolean(),
  certPem: z.string(),
  createdAt: z.number(),
});
export type CertView = z.infer<typeof certView>;

export const certListQuery = z.object({
  status: z.enum(CERT_STATUSES).optional(),
  expiringWithinDays: z.coerce.number().int().min(0).max(PKI_LIMITS.expiringWithinDaysMax).optional(),
  keyId: z.string().max(64).optional(),
  /** prefix of the common name */
  cn: z.string().max(PKI_LIMITS.cnMax).optional(),
  /** exact serial number, decimal */
  sn: z.string().regex(SERIAL_NUMBER, 'validation.serial').max(50).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(PKI_LIMITS.listLimitMax).default(20),
});
export const certList = z.object({ items: z.array(certView), next: z.string().nullable() });
export const certParams = z.object({ certId: z.string().min(1).max(64) });

// --- issue record -----------------------------------------------------------------------

export const CERT_RECORD_KINDS = ['issue', 'reissue', 'revoke', 'import', 'renewCa'] as const;
export const certRecordView = z.object({
  id: z.string(),
  kind: z.enum(CERT_RECORD_KINDS),
  certId: z.string(),
  sn: z.string(),
  cn: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  reason: z.enum(REVOKE_REASONS).nullable(),
  at: z.number(),
});
export const certRecordQuery = z.object({
  certId: z.string().max(64).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(PKI_LIMITS.listLimitMax).default(20),
});
export const certRecordList = z.object({ items: z.array(certRecordView), next: z.string().nullable() });

// --- CAs --------------------------------------------------------------------------------

export const CA_KINDS = ['platform', 'realm', 'account'] as const;
export const caView = z.object({
  id: z.string(),
  kind: z.enum(CA_KINDS),
  realmId: z.string().nullable(),
  accountId: z.string().nullable(),
  accountName: z.string().nullable(),
  subject: z.string(),
  issuer: z.string(),
  sn: z.string(),
  notBeforeTs: z.number(),
  expireAtTs: z.number(),
  fingerprint: z.string(),
  keyAlgorithm: z.string(),
  status: z.enum(CERT_STATUSES),
  description: z.string(),
  /** days; certificates it issues default to this validity */
  defaultIssueValidPeriod: z.number(),
  /** days; no certificate it issues is valid longer */
  maxIssueValidPeriod: z.number(),
  certPem: z.string(),
});
export type CaView = z.infer<typeof caView>;

const zPeriodDays = z.number().int().min(PKI_LIMITS.minPeriodDays, 'validation.period_min').max(PKI_LIMITS.maxPeriodDays);
/** Edit CA (SPEC §2): description 4–50, default and maximum issuance period, not under one month. */
export const caEditBody = z
  .object({ description: zDescription.optional(), defaultIssueValidPeriod: zPeriodDays.optional(), maxIssueValidPeriod: zPeriodDays.optional() })
  .strict()
  .refine((b) => b.defaultIssueValidPeriod === undefined || b.maxIssueValidPeriod === undefined || b.defaultIssueValidPeriod <= b.maxIssueValidPeriod, {
    message: 'validation.period_order',
    path: ['defaultIssueValidPeriod'],
  });

/** The realm's chain: platform root → realm intermediate (domain/cert page). */
export const realmChain = z.object({ root: caView, intermediate: caView });
export const accountCaList = z.object({ items: z.array(caView), next: z.string().nullable() });
export const accountCaQuery = z.object({
  /** prefix of the account's user name */
  q: z.string().max(64).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(PKI_LIMITS.listLimitMax).default(20),
});
export const caParams = z.object({ realmId: z.string(), caId: z.string().min(1).max(64) });

export const CHAIN_FORMATS = ['pem', 'der', 'p7b'] as const;

// --- expiry inventory -------------------------------------------------------------------

export const EXPIRY_WINDOWS = [7, 30, 90] as const;
export const expiryQuery = z.object({ withinDays: z.coerce.number().int().min(1).max(PKI_LIMITS.expiringWithinDaysMax).default(30) });
export const expiryInventory = z.object({
  counts: z.object({ d7: z.number(), d30: z.number(), d90: z.number() }),
  items: z.array(certView.pick({ id: true, type: true, cn: true, sn: true, expireAtTs: true, status: true }).extend({ accountName: z.string().nullable() })),
});

// --- tools ------------------------------------------------------------------------------

export const CONVERT_FORMATS = ['pem', 'der', 'pkcs12', 'pkcs7'] as const;
export type ConvertFormat = (typeof CONVERT_FORMATS)[number];
/**
 * Convert format (tools): `input` is PEM text, or base64 for binary inputs (der, pkcs12,
 * pkcs7 in DER). Certificate + key → PKCS#12 needs `keyPem` and `password`; PKCS#12 → PEM
 * needs `password`. The answer is PEM text or base64 with a suggested file name.
 */
export const convertBody = z
  .object({
    from: z.enum(CONVERT_FORMATS),
    to: z.enum(CONVERT_FORMATS),
    input: z.string().max(PKI_LIMITS.toolInputMaxBytes),
    keyPem: z.string().max(PKI_LIMITS.pemMaxBytes).optional(),
    password: z.string().min(PKI_LIMITS.pkcs12PasswordMin).max(PKI_LIMITS.pkcs12PasswordMax).optional(),
  })
  .strict();
export const convertResult = z.object({ fileName: z.string(), mediaType: z.string(), text: z.string().optional(), base64: z.string().optional() });

export const viewBody = z.object({ pem: z.string().max(PKI_LIMITS.pemMaxBytes) }).strict();
/** Every field decoded in a readable form: ordered label/value rows, grouped. */
/**
 * The labels the console shows in the user's language (phrase `cert.decoded_<key>`); a row or
 * group without a key (an extension, an attribute: named with their OID) shows `label`/`title`.
 */
export const DECODED_KEYS = [
  'group_certificate',
  'group_public_key',
  'group_extensions',
  'group_fingerprints',
  'group_request',
  'group_requested_extensions',
  'group_attributes',
  'version',
  'serial_decimal',
  'serial_hex',
  'signature_algorithm',
  'issuer',
  'subject',
  'not_before',
  'not_after',
  'status',
  'self_signed',
  'algorithm',
  'size',
  'curve',
  'exponent',
  'spki_sha256',
  'signature',
] as const;
export type DecodedKey = (typeof DECODED_KEYS)[number];
export const decodedField = z.object({ key: z.enum(DECODED_KEYS).optional(), label: z.string(), value: z.string() });
export const decodedView = z.object({
  kind: z.enum(['certificate', 'csr']),
  groups: z.array(z.object({ key: z.enum(DECODED_KEYS).optional(), title: z.string(), fields: z.array(decodedField) })),
});

// --- paths ------------------------------------------------------------------------------

const e = encodeURIComponent;
export const pkiPaths = {
  ca: '/api/cert/ca',
  caChain: (format: (typeof CHAIN_FORMATS)[number]) => `/api/cert/ca/chain?format=${format}`,
  keys: '/api/cert/keys',
  key: (keyId: string) => `/api/cert/keys/${e(keyId)}`,
  keyPublic: (keyId: string) => `/api/cert/keys/${e(keyId)}/public.pem`,
  keyCert: (keyId: string) => `/api/cert/keys/${e(keyId)}/cert`,
  certs: '/api/cert/certs',
  cert: (certId: string) => `/api/cert/certs/${e(certId)}`,
  certReissue: (certId: string) => `/api/cert/certs/${e(certId)}/reissue`,
  certRevoke: (certId: string) => `/api/cert/certs/${e(certId)}/revoke`,
  records: '/api/cert/records',
  convert: '/api/cert/tools/convert',
  viewCert: '/api/cert/tools/view-cert',
  viewCsr: '/api/cert/tools/view-csr',
  realmChain: (realmId: string) => `/api/cert/realms/${e(realmId)}/chain`,
  /** issue 13: renew the realm intermediate (same key and subject, validity realmMiddleCertValidity) */
  realmIntermediateRenew: (realmId: string) => `/api/cert/realms/${e(realmId)}/intermediate/renew`,
  realmAccountCas: (realmId: string) => `/api/cert/realms/${e(realmId)}/account-cas`,
  realmAccountCaRenew: (realmId: string, caId: string) => `/api/cert/realms/${e(realmId)}/account-cas/${e(caId)}/renew`,
  realmAccountCaRevoke: (realmId: string, caId: string) => `/api/cert/realms/${e(realmId)}/account-cas/${e(caId)}/revoke`,
  /** a revoked account CA replaced by a new account CA with a NEW key (its account's next issuance does the same) */
  realmAccountCaReplace: (realmId: string, caId: string) => `/api/cert/realms/${e(realmId)}/account-cas/${e(caId)}/replace`,
  /** the platform root renewed with its key (administrators of master holding domainCert.update) */
  platformRootRenew: '/api/cert/platform-root/renew',
  realmExpiring: (realmId: string) => `/api/cert/realms/${e(realmId)}/expiring`,
  /** public (no token): AIA caIssuers, CRL distribution point, OCSP */
  publicCaCert: (realmId: string, caId: string) => `/pki/realms/${e(realmId)}/cas/${e(caId)}.crt`,
  publicCrl: (realmId: string, caId: string) => `/pki/realms/${e(realmId)}/cas/${e(caId)}.crl`,
  publicCrlPem: (realmId: string, caId: string) => `/pki/realms/${e(realmId)}/cas/${e(caId)}.crl.pem`,
  publicOcsp: (realmId: string, caId: string) => `/pki/realms/${e(realmId)}/cas/${e(caId)}/ocsp`,
} as const;
