/**
 * OAuth errors, named after the RFC values they answer (STYLE §10): token, introspection,
 * revocation, device and userinfo endpoints answer them in RFC 6749 §5.2's JSON shape
 * `{error, error_description}`, never in the console envelope (oauth/endpoints/oauth-http.ts
 * renders them). A description never carries a token, code or secret.
 */

export type OAuthErrorCode =
  // RFC 6749 §5.2
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  // RFC 8693 §2.2.2
  | 'invalid_target'
  // RFC 8628 §3.5
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token'
  // RFC 6750 §3.1 (userinfo)
  | 'invalid_token'
  | 'insufficient_scope'
  // RFC 7009 §2.2.1
  | 'unsupported_token_type'
  | 'server_error'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** 400 unless the RFC says otherwise (invalid_client: 401, §5.2) */
    readonly status = 400,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }
}

export class InvalidRequest extends OAuthError {
  constructor(description: string) {
    super('invalid_request', description);
  }
}

/** RFC 6749 §5.2: 401; with `WWW-Authenticate` naming the scheme the client tried (Basic). */
export class InvalidClient extends OAuthError {
  constructor(description: string, headers?: Record<string, string>) {
    super('invalid_client', description, 401, headers);
  }
}

export class InvalidGrant extends OAuthError {
  constructor(description: string) {
    super('invalid_grant', description);
  }
}

export class UnauthorizedClient extends OAuthError {
  constructor(description: string) {
    super('unauthorized_client', description);
  }
}

export class UnsupportedGrantType extends OAuthError {
  constructor(description: string) {
    super('unsupported_grant_type', description);
  }
}

export class InvalidScope extends OAuthError {
  constructor(description: string) {
    super('invalid_scope', description);
  }
}

export class InvalidTarget extends OAuthError {
  constructor(description: string) {
    super('invalid_target', description);
  }
}
