/**
 * The error catalogue (SPEC §8) plus the codes this project adds (documented in README).
 * `key` is the phrase key under `errors` in every locale; `status` is the HTTP status the
 * server answers with. The console shows the phrase for the code, as SPEC §8 says.
 */
export const ErrorCodes = {
  // --- SPEC §8 ---
  BAD_CREDENTIALS: { code: 1010, key: 'bad_credentials', status: 400 },
  BACKEND_BAD_CREDENTIALS: { code: 1300, key: 'bad_credentials', status: 400 },
  BACKEND_BAD_CREDENTIALS_ALT: { code: 1301, key: 'bad_credentials', status: 400 },
  INVALID_PARAMETER: { code: 1009, key: 'invalid_parameter', status: 400 },
  INVALID_PARAMETER_ALT: { code: 3006, key: 'invalid_parameter', status: 400 },
  DATABASE_ERROR: { code: 1201, key: 'database_error', status: 503 },
  RETRY_LATER: { code: 1202, key: 'retry_later', status: 400 },
  RETRY_LATER_ALT: { code: 1302, key: 'retry_later', status: 400 },
  USER_EXISTS: { code: 1205, key: 'user_exists', status: 409 },
  USER_NOT_FOUND: { code: 1207, key: 'user_not_found', status: 404 },
  OTP_FAILED: { code: 1502, key: 'otp_failed', status: 400 },
  OTP_EMPTY: { code: 1503, key: 'otp_empty', status: 400 },
  CODE_EXPIRED: { code: 4004, key: 'code_expired', status: 400 },
  CAPTCHA_WRONG: { code: 4005, key: 'captcha_wrong', status: 400 },
  CODE_INVALID: { code: 4006, key: 'code_invalid', status: 400 },
  CODE_INVALID_ALT: { code: 4007, key: 'code_invalid', status: 400 },
  EMAIL_NOT_FOUND: { code: 5000, key: 'email_not_found', status: 404 },
  EMAIL_CODE_WRONG: { code: 5002, key: 'email_code_wrong', status: 400 },
  EMAIL_NOT_ACTIVATED: { code: 5007, key: 'email_not_activated', status: 403 },
  // --- added by umbo (README "Error codes") ---
  UNAUTHORIZED: { code: 1001, key: 'unauthorized', status: 401 },
  FORBIDDEN: { code: 1003, key: 'forbidden', status: 403 },
  NOT_FOUND: { code: 1004, key: 'not_found', status: 404 },
  RATE_LIMITED: { code: 1006, key: 'rate_limited', status: 429 },
  PASSWORD_CHANGE_REQUIRED: { code: 1008, key: 'password_change_required', status: 403 },
  ACCOUNT_DISABLED: { code: 1011, key: 'account_disabled', status: 403 },
  ACCOUNT_LOCKED: { code: 1012, key: 'account_locked', status: 429 },
  PAYLOAD_TOO_LARGE: { code: 1013, key: 'payload_too_large', status: 413 },
  METHOD_DISABLED: { code: 1014, key: 'method_disabled', status: 403 },
  /** shorter than SPEC §5 / the realm's minimum, on the common-passwords list, or unchanged; errData.reason says which */
  PASSWORD_REJECTED: { code: 1021, key: 'password_rejected', status: 400 },
  INTERNAL: { code: 1500, key: 'internal', status: 500 },
} as const;

export type ErrorName = keyof typeof ErrorCodes;
export type ErrorDef = (typeof ErrorCodes)[ErrorName];
export type ErrorKey = ErrorDef['key'];

const byCode = new Map<number, ErrorDef>(Object.values(ErrorCodes).map((d) => [d.code, d]));

/** The catalogue entry for a numeric code, if the code is known. */
export function errorByCode(code: number): ErrorDef | undefined {
  return byCode.get(code);
}

/** errData that turns any failure into SPEC §6's missing-permission message. */
export interface PermissionErrData {
  service: string;
  resource: string;
  perm: string;
}
