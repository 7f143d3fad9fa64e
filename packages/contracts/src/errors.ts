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
  // realms (issue 11)
  /** the realm id is taken (errData {field: 'realmId'}) */
  REALM_EXISTS: { code: 1030, key: 'realm_exists', status: 409 },
  /** `master` cannot be deleted */
  REALM_PROTECTED: { code: 1031, key: 'realm_protected', status: 403 },
  /** the realm still has accounts: errData {accountCount}; send {confirmDeleteEverything: true, accountCount} */
  REALM_NOT_EMPTY: { code: 1032, key: 'realm_not_empty', status: 409 },
  /** a logo/icon that is not PNG/JPEG or is too large: errData {kind, maxBytes} */
  IMAGE_REJECTED: { code: 1033, key: 'image_rejected', status: 400 },
  /** the test mail could not be delivered: errData {reason} (no secret, no server answer) */
  MAIL_FAILED: { code: 1034, key: 'mail_failed', status: 502 },
  /** a realm export document that cannot be imported: errData {field, reason} */
  IMPORT_INVALID: { code: 1035, key: 'import_invalid', status: 400 },
  // person accounts (issue 11)
  /** the CSV cannot be read as a whole: errData {reason: encoding|header|missing_columns|unknown_columns|malformed|too_many_rows|empty, line?, columns?} */
  CSV_INVALID: { code: 1040, key: 'csv_invalid', status: 400 },
  /** an import with row errors writes nothing: errData is the row-level report */
  IMPORT_REJECTED: { code: 1041, key: 'import_rejected', status: 400 },
  /** an administrator cannot disable, delete or reset their own account here (errData {action}) */
  SELF_ACTION: { code: 1042, key: 'self_action', status: 409 },
  // roles and assignments (issue 11, A-40)
  ROLE_NAME_TAKEN: { code: 1060, key: 'role_name_taken', status: 409 },
  ROLE_BUILTIN: { code: 1061, key: 'role_builtin', status: 403 },
  /** errData {permissionId, action}: a grant the caller does not hold in that realm */
  ROLE_TOO_WIDE: { code: 1062, key: 'role_too_wide', status: 403 },
  LAST_MASTER_ADMIN: { code: 1063, key: 'last_master_admin', status: 409 },
  ADMIN_MASTER_ONLY: { code: 1064, key: 'admin_master_only', status: 400 },
  // service (sub) accounts (issue 11)
  /** the owner already has a service account with this sub name (compared without case) */
  SERVICE_NAME_TAKEN: { code: 1050, key: 'service_name_taken', status: 409 },
  /** errData {permissionId, action, holder: 'owner' | 'caller'}: a grant beyond the owner's or the caller's permissions */
  SERVICE_GRANT_TOO_WIDE: { code: 1051, key: 'service_grant_too_wide', status: 403 },
  /** A-40 impersonation: the service account can do more than the caller, who may not set its password or enable it */
  SERVICE_ABOVE_CALLER: { code: 1052, key: 'service_above_caller', status: 403 },
  // OAuth clients and sub clients (issue 12)
  /** the client id is taken in this realm (errData {field: 'clientId'}) */
  CLIENT_ID_TAKEN: { code: 1070, key: 'client_id_taken', status: 409 },
  /** SPEC §5 "Sub-client ID already exists" (errData {field: 'subClientId'}) */
  SUB_CLIENT_ID_TAKEN: { code: 1071, key: 'sub_client_id_taken', status: 409 },
  /** a public (none) or private_key_jwt client has no secret to regenerate */
  CLIENT_NO_SECRET: { code: 1072, key: 'client_no_secret', status: 409 },
  /** default_client_id names no top-level, enabled client of the realm (errData {field: 'default_client_id'}) */
  DEFAULT_CLIENT_UNKNOWN: { code: 1073, key: 'default_client_unknown', status: 400 },
  /** the realm's default client cannot be deleted or disabled: point default_client_id elsewhere first */
  DEFAULT_CLIENT_PROTECTED: { code: 1074, key: 'default_client_protected', status: 409 },
  /** a sub client's parent must be a top-level client (sub clients have no sub clients) */
  SUB_CLIENT_PARENT: { code: 1075, key: 'sub_client_parent', status: 400 },
  // OAuth sign-in: the console's interaction with a pending authorization (issue 12)
  /** the challenge is not ours, damaged or past its 10 minutes: start again from the application */
  OAUTH_CHALLENGE_INVALID: { code: 1080, key: 'oauth_challenge_invalid', status: 400 },
  /** prompt=login / max_age: this sign-in is older than the application accepts; sign in again */
  OAUTH_LOGIN_AGAIN: { code: 1081, key: 'oauth_login_again', status: 403 },
  /** the signed-in account is not of the realm the application belongs to (errData {realmId}) */
  OAUTH_WRONG_REALM: { code: 1082, key: 'oauth_wrong_realm', status: 403 },
  /** callback_uri link: unknown or disabled client, public client, or an URI the client has not registered — never followed */
  OAUTH_CALLBACK_REFUSED: { code: 1083, key: 'oauth_callback_refused', status: 400 },
  /** the client was disabled or deleted since the sign-in started */
  OAUTH_CLIENT_UNAVAILABLE: { code: 1084, key: 'oauth_client_unavailable', status: 409 },
  // device authorization, the /device page (issue 12, RFC 8628)
  /** no such user code in the caller's realm (also another realm's code: nothing leaks); errData {locked, retryAfter} while throttled (RFC 8628 §5.1) */
  DEVICE_CODE_UNKNOWN: { code: 1090, key: 'device_code_unknown', status: 400 },
  /** the user code's lifetime is over: the device must start again */
  DEVICE_CODE_EXPIRED: { code: 1091, key: 'device_code_expired', status: 400 },
  /** the user code was already approved or denied */
  DEVICE_CODE_DECIDED: { code: 1092, key: 'device_code_decided', status: 409 },
  /** the client that asked is disabled now */
  DEVICE_CLIENT_DISABLED: { code: 1093, key: 'device_client_disabled', status: 409 },
  // device CA (issue 13)
  /** SPEC §8 "The csr content is empty" */
  CSR_EMPTY: { code: 1100, key: 'csr_empty', status: 400 },
  /** SPEC §8 "The certificate content is empty" */
  CERT_EMPTY: { code: 1101, key: 'cert_empty', status: 400 },
  /** not PEM where PEM is required, truncated, or not the structure expected (errData {what}) */
  PEM_INVALID: { code: 1102, key: 'pem_invalid', status: 400 },
  /** the CSR's self-signature does not verify (CA-03) */
  CSR_SIGNATURE: { code: 1103, key: 'csr_signature', status: 400 },
  /** a key algorithm or size we do not sign (RSA under 2048, unknown curves; errData {algorithm}) */
  KEY_REJECTED: { code: 1104, key: 'key_rejected', status: 400 },
  /** a SAN or common name breaks SPEC §5's rules (errData {entry}) */
  SAN_INVALID: { code: 1105, key: 'san_invalid', status: 400 },
  /** notBefore/expireAt outside the CA's maximum or its own validity (errData {maxDays}) */
  VALIDITY_INVALID: { code: 1106, key: 'validity_invalid', status: 400 },
  /** the key still has a valid certificate */
  KEY_IN_USE: { code: 1107, key: 'key_in_use', status: 409 },
  /** the account already has a key by that name */
  KEY_NAME_EXISTS: { code: 1108, key: 'key_name_exists', status: 409 },
  /** the certificate is already revoked (or expired, for reissue of a CA) */
  CERT_REVOKED: { code: 1109, key: 'cert_revoked', status: 409 },
  /** set cert: the chain does not lead to a CA we know, and "allow unknown CA" is off */
  CHAIN_UNVERIFIED: { code: 1110, key: 'chain_unverified', status: 400 },
  /** set cert: the certificate is not for this key */
  CERT_KEY_MISMATCH: { code: 1111, key: 'cert_key_mismatch', status: 400 },
  /** the issuing CA is revoked or expired: renew it first */
  CA_UNAVAILABLE: { code: 1112, key: 'ca_unavailable', status: 409 },
  /** tools: the input could not be converted (wrong password, wrong format; errData {reason}) */
  CONVERT_FAILED: { code: 1113, key: 'convert_failed', status: 400 },
  /** a revoked CA is never renewed with its key: an account CA gets a new one (replace, or the account's next issuance) */
  CA_REVOKED: { code: 1114, key: 'ca_revoked', status: 409 },
  // realm backends (issue 14)
  /** SPEC §8 "Connect it error": the realm's IT-interface backend is down, slow (> 3 s), refused our signature or answered garbage; errData {reason} */
  CONNECT_IT_ERROR: { code: 1303, key: 'connect_it_error', status: 502 },
  // sign-in through an upstream OpenID provider (issue 14)
  /** the upstream sign-in did not complete: refused or cancelled there, a transaction that is not this browser's, spent or expired, or an answer that fails validation (errData {reason}) */
  UPSTREAM_SIGN_IN_FAILED: { code: 1140, key: 'upstream_sign_in_failed', status: 400 },
  /** the upstream provider could not be reached or answered garbage (discovery, keys, token) */
  UPSTREAM_UNAVAILABLE: { code: 1141, key: 'upstream_unavailable', status: 502 },
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
