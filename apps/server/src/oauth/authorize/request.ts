/** A validated authorization request: what every later step (sign-in, consent, code) works from. */
export interface AuthzRequest {
  realmId: string;
  /** the client's row id (oauth_clients.id) */
  clientRef: string;
  clientId: string;
  redirectUri: string;
  /** false: the request omitted redirect_uri (the client's single registered one is used) */
  redirectUriGiven: boolean;
  scope: string[];
  state?: string | undefined;
  nonce?: string | undefined;
  /** S256 code_challenge */
  codeChallenge?: string | undefined;
  prompt: string[];
  maxAge?: number | undefined;
  /** when the request arrived (ms): prompt=login needs a sign-in after it */
  at: number;
}

/** Who the code is for and how they authenticated. */
export interface AuthzSubject {
  accountId: string;
  /** ms since the epoch (OIDC auth_time, in seconds in tokens) */
  authTime: number;
  /** the browser SSO session (OIDC sid); null when none was made */
  sid: string | null;
}

/** prompt=login, or max_age=0, or the sign-in is older than max_age. */
export function needsFreshLogin(req: AuthzRequest, authTime: number | undefined, now: number): boolean {
  if (authTime === undefined) return true;
  if (req.prompt.includes('login') && authTime < req.at) return true;
  if (req.maxAge !== undefined && now - authTime > req.maxAge * 1000) return true;
  return false;
}
