/**
 * Authorization endpoint errors (RFC 6749 §4.1.2.1; OIDC Core §3.1.2.6 adds login_required,
 * consent_required, interaction_required, request_not_supported, request_uri_not_supported).
 * Whether one is shown on our own error page or sent to the client's redirect URI is decided
 * by the step that found it (oauth/endpoints/authorize.ts), never by the check.
 */
export type AuthorizeErrorCode =
  | 'invalid_request'
  | 'unauthorized_client'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'server_error'
  | 'login_required'
  | 'consent_required'
  | 'request_not_supported'
  | 'request_uri_not_supported';

export class AuthorizeError extends Error {
  constructor(
    public readonly error: AuthorizeErrorCode,
    public readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

export const authorizeError = (error: AuthorizeErrorCode, description: string) => new AuthorizeError(error, description);
