/** One-time passwords and their recovery codes; otp.repo.ts is the only writer of both. */

/** An account's TOTP (RFC 6238; issue 3, A-32). */
export interface AccountOtpTable {
  account_id: string;
  realm_id: string;
  enabled: number;
  /** sealed base32 secret (Secrets.encrypt) */
  secret: string | null;
  /** the last accepted time step: a step ≤ this is never accepted again */
  last_step: number;
  /** sealed secret of a setup not yet confirmed with two codes */
  pending_secret: string | null;
  pending_at: number | null;
  enabled_at: number | null;
  updated_at: number;
}

export interface OtpRecoveryCodeTable {
  id: string;
  realm_id: string;
  account_id: string;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    account_otp: AccountOtpTable;
    otp_recovery_codes: OtpRecoveryCodeTable;
  }
}
