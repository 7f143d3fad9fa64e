/**
 * One-time codes, mail-link codes and rate counters. codes.repo.ts writes verification_codes
 * and rate_counters, mail-links.repo.ts writes mail_link_codes.
 */

/** 6-digit SMS/email codes, captchas and sign-in tokens when no Redis is configured (issue 3). */
export interface VerificationCodeTable {
  realm_id: string;
  purpose: string;
  /** keyed hash of the target (number, address, serial), never the target itself */
  target_hash: string;
  code_hash: string;
  serial_no: string;
  /** who the code stands for, when known (sign-in tokens) */
  subject: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** 24-character mail-link codes: activation and password reset (SPEC §5, §4). */
export interface MailLinkCodeTable {
  id: string;
  realm_id: string;
  kind: 'activate' | 'reset';
  code_hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Fixed-window counters for rate limits and daily caps when no Redis is configured. */
export interface RateCounterTable {
  key: string;
  count: number;
  window_end: number;
}

declare module '../platform/db.js' {
  interface Database {
    verification_codes: VerificationCodeTable;
    mail_link_codes: MailLinkCodeTable;
    rate_counters: RateCounterTable;
  }
}
