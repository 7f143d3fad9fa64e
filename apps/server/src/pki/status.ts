/**
 * A certificate's status as the console shows it (contracts' CERT_STATUSES), in one place for
 * the views and for the list's status filter (certs.repo.ts listOwn keeps the same order).
 * First match wins: its own revocation, then a revoked CA above it (caRevoked: relying parties
 * refuse the whole chain, RFC 5280 §6.3, whatever the leaf's own state), then expiry, then a
 * validity that has not begun.
 */
import type { CertStatus } from '@umbo/contracts';
import type { CertRow } from './certs.repo.js';

export type StatusFacts = Pick<CertRow, 'revoked_at' | 'not_before' | 'not_after'> & {
  /** a CA in the chain above this certificate is revoked (certs.repo's ca_revoked); CA rows leave it out */
  ca_revoked?: number | boolean | null;
};

export function statusOfRow(r: StatusFacts, now: number): CertStatus {
  if (r.revoked_at !== null) return 'revoked';
  // PostgreSQL answers the flag as a boolean, SQLite as 0/1
  if (r.ca_revoked === true || Number(r.ca_revoked) === 1) return 'caRevoked';
  if (r.not_after <= now) return 'expired';
  if (r.not_before > now) return 'pending';
  return 'valid';
}
