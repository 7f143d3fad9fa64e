/**
 * The device CA's tables (issue 13, migration 0025). One writer: pki.repo.ts (CAs, keys, CRLs)
 * and certs.repo.ts (certificates, issue records).
 */

/** A CA: the platform root, a realm intermediate or an account CA ("account root certificate"). */
export interface PkiCaTable {
  id: string;
  /** platform | realm | account */
  kind: string;
  /** 'platform', 'realm:<realmId>' or 'account:<accountId>', unique: parallel first-need creations make one CA */
  slot: string;
  realm_id: string | null;
  account_id: string | null;
  /** the CA that signs this CA's certificate (the root: itself) */
  parent_id: string | null;
  /** the current certificate (pki_certs.id); renewal points it at the new one */
  cert_id: string;
  /** 'EC P-256', 'EC P-384', 'RSA 2048', … */
  key_algorithm: string;
  /** PKCS#8 PEM sealed with the master key (CA-05); never answered */
  key_sealed: string;
  description: string;
  default_issue_days: number;
  max_issue_days: number;
  /** the last cRLNumber handed out (CA-04: strictly increasing, in the database) */
  crl_counter: number;
  created_at: number;
  updated_at: number;
}

/** SPEC §3 "Key": a managed key of an account. */
export interface PkiKeyTable {
  id: string;
  realm_id: string;
  account_id: string;
  name: string;
  description: string;
  algorithm: string;
  strength: string;
  /** SHA-256 of the SubjectPublicKeyInfo, hex */
  fingerprint: string;
  public_key_pem: string;
  /** PKCS#8 PEM sealed with the master key */
  private_sealed: string;
  created_at: number;
}

/** Every certificate we issued or imported, CA certificates included. */
export interface PkiCertTable {
  id: string;
  realm_id: string | null;
  account_id: string | null;
  /** the issuing CA; null for an imported certificate */
  ca_id: string | null;
  /** the CA this certificate belongs to (CA certificates only) */
  subject_ca_id: string | null;
  /** device | service | accountCa | realmCa | rootCa */
  type: string;
  cn_type: string | null;
  cn: string;
  /** JSON SanEntry[] */
  san: string;
  /** decimal, unique per issuing CA (CA-01) */
  sn: string;
  key_id: string | null;
  description: string;
  issuer: string;
  subject: string;
  /** SHA-256 of the DER certificate, hex */
  fingerprint: string;
  ours: number;
  /** 1: a CA certificate replaced by a renewal (still valid; not the CA's current one) */
  superseded: number;
  cert_pem: string;
  not_before: number;
  not_after: number;
  revoked_at: number | null;
  revoke_reason: string | null;
  created_at: number;
}

/** SPEC §3 "certRecord": every issuance, reissue, revocation, import and CA renewal. */
export interface PkiRecordTable {
  id: string;
  realm_id: string | null;
  account_id: string | null;
  /** issue | reissue | revoke | import | renewCa */
  kind: string;
  cert_id: string;
  sn: string;
  cn: string;
  actor_id: string | null;
  actor_name: string | null;
  reason: string | null;
  at: number;
}

/** The newest CRL of each CA. */
export interface PkiCrlTable {
  ca_id: string;
  crl_number: number;
  this_update: number;
  next_update: number;
  /** DER, base64 */
  der: string;
}

declare module '../platform/db.js' {
  interface Database {
    pki_cas: PkiCaTable;
    pki_keys: PkiKeyTable;
    pki_certs: PkiCertTable;
    pki_records: PkiRecordTable;
    pki_crls: PkiCrlTable;
  }
}
