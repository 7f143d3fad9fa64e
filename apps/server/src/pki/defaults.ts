/**
 * The device CA's fixed rules (issue 13, STYLE.md §3): validities, key rules, serial size, CRL
 * lifetime. Realm-tunable validities (realmMiddleCertValidity, accountCertValidity) live in the
 * realm settings; everything here is the same for every realm.
 */
import { PKI_LIMITS } from '@umbo/contracts';

export const DAY_MS = PKI_LIMITS.dayMs;

/** The platform root made at first start: 25 years, EC P-384 (signs with ECDSA SHA-384). */
export const ROOT_VALIDITY_DAYS = 25 * 365;
export const ROOT_CURVE = 'P-384';
/** Realm intermediates and account CAs: EC P-256. */
export const CA_CURVE = 'P-256';

/** An account CA's issuance periods until the owner edits them (SPEC §2 "edit CA"). */
export const ACCOUNT_CA_DEFAULT_ISSUE_DAYS = 365;
export const ACCOUNT_CA_MAX_ISSUE_DAYS = 3650;

/** Leaf keys we sign (CSR or managed): RSA ≥ 2048 (≤ 8192), EC P-256/P-384, Ed25519. */
export const RSA_MIN_BITS = 2048;
export const RSA_MAX_BITS = 8192;
export const EC_CURVES = ['P-256', 'P-384'] as const;

/**
 * Serial numbers (CA-01): 16 random octets, the top bit cleared (positive) and the next one set
 * (no leading zero octet is trimmed away): 126 random bits, 16 octets ≤ 20.
 */
export const SERIAL_OCTETS = 16;

/** A CRL is valid 7 days; the job regenerates it when less than a day is left (CA-04). */
export const CRL_LIFETIME_MS = 7 * DAY_MS;
export const CRL_REFRESH_BEFORE_MS = DAY_MS;
export const CRL_JOB_EVERY_MS = 60 * 60 * 1000;

/** A notBefore may lie this far in the past (clock skew of devices), not more. */
export const BACKDATE_MAX_MS = DAY_MS;

/** A chain handed to "set cert" is followed this many certificates up, no further. */
export const CHAIN_MAX_DEPTH = 6;

/** A device id common name: letters, digits and . _ : - (SPEC §5 has no rule for it; this keeps DNs plain). */
export const DEVICE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** A CA renewed less than this ago is not renewed again: the request answers that renewal. */
export const RENEW_REPEAT_MS = 60_000;
