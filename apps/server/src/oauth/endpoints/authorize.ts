/**
 * The authorization endpoint (RFC 6749 §3.1, §4.1.1; OIDC Core §3.1.2), as a list of steps.
 *
 * Until the client and its redirect URI are known good, a failure is shown on our own error
 * page and the browser is never redirected (RFC 6749 §4.1.2.1, AS-02): an unverified URI may
 * be an attacker's. After that, failures go back to the client's redirect URI with error,
 * error_description, state and iss (RFC 9207). Success is a 303 (AS-15) with code, state and
 * iss; a user who must sign in or consent goes to the console with a sealed challenge.
 */
import { AuthorizeError } from '../authorize/errors.js';
import type { AuthorizeService } from '../authorize/authorize.service.js';
import { needsFreshLogin, type AuthzRequest } from '../authorize/request.js';
import { checkClient } from '../checks/check-client.js';
import { checkCodeGrantAllowed } from '../checks/check-grant.js';
import { paramsOf } from '../checks/params.js';
import { checkPkceRequest } from '../checks/check-pkce-request.js';
import { checkPrompt } from '../checks/check-prompt.js';
import { checkRedirectUri } from '../checks/check-redirect-uri.js';
import { checkNoRequestObject } from '../checks/check-request-object.js';
import { checkResponseType } from '../checks/check-response-type.js';
import { checkScope } from '../checks/check-scope.js';
import { checkStateAndNonce, STATE_MAX } from '../checks/check-state-nonce.js';

export type AuthorizeOutcome = { kind: 'page'; status: 400 | 404; error: string; description: string } | { kind: 'redirect'; location: string };

export interface AuthorizeInput {
  realmId: string;
  /** the query (GET) or the form body (POST), as parsed: repeated names give arrays */
  raw: unknown;
  /** the SSO cookie's value, if any */
  ssoToken: string | undefined;
  now: number;
}

export interface AuthorizeEndpointDeps {
  realmExists(realmId: string): Promise<boolean>;
  authorize: AuthorizeService;
}

const page = (status: 400 | 404, error: string, description: string): AuthorizeOutcome => ({ kind: 'page', status, error, description });

export async function handleAuthorize(input: AuthorizeInput, deps: AuthorizeEndpointDeps): Promise<AuthorizeOutcome> {
  const { realmId, now } = input;
  const az = deps.authorize;
  const params = paramsOf(input.raw);

  // 1. The realm exists (A-24: an unknown realm is a 404, the same as any unknown path).
  if (!(await deps.realmExists(realmId))) return page(404, 'not_found', 'unknown realm');

  // 2. The client and 3. its redirect URI: failures are shown here, never redirected (AS-01, AS-02).
  let client, redirect;
  try {
    client = await checkClient(realmId, params, az.findClient);
    redirect = checkRedirectUri(client, params);
  } catch (err) {
    if (err instanceof AuthorizeError) return page(400, err.error, err.description);
    throw err;
  }

  // From here the client may be told. A repeated or oversized state is not echoed.
  const rawState = params.repeated('state') ? undefined : params.get('state');
  const back = { redirectUri: redirect.redirectUri, realmId, state: rawState && rawState.length <= STATE_MAX ? rawState : undefined };
  const refuse = (error: string, description: string): AuthorizeOutcome => ({ kind: 'redirect', location: az.errorUrl(back, error, description) });

  let req: AuthzRequest;
  try {
    // 4. No request objects (OIDC Core §6; AS-26: we never fetch request_uri).
    checkNoRequestObject(params);
    // 5. response_type=code, response_mode=query (AS-11).
    checkResponseType(params);
    // 6. The client may use this grant (unauthorized_client).
    checkCodeGrantAllowed(client);
    // 7. PKCE: S256 only, required for public clients (AS-05).
    const codeChallenge = checkPkceRequest(client, params);
    // 8. Scopes we know and the client may ask for (invalid_scope).
    const scope = checkScope(client, params);
    // 9. prompt and max_age (OIDC Core §3.1.2.1).
    const { prompt, maxAge } = checkPrompt(params);
    // 10. state and nonce within bounds.
    const { state, nonce } = checkStateAndNonce(params);
    req = {
      realmId,
      clientRef: client.id,
      clientId: client.clientId,
      redirectUri: redirect.redirectUri,
      redirectUriGiven: redirect.given,
      scope,
      state,
      nonce,
      codeChallenge,
      prompt,
      maxAge,
      at: now,
    };
  } catch (err) {
    if (err instanceof AuthorizeError) return refuse(err.error, err.description);
    throw err;
  }

  // 11. The user: a live SSO session of this realm, recent enough for prompt=login / max_age.
  const sso = await az.ssoOf(realmId, input.ssoToken);
  const passive = req.prompt.includes('none');
  if (!sso || needsFreshLogin(req, sso.authTime, now)) {
    // OIDC Core §3.1.2.6: prompt=none never shows a page.
    if (passive) return refuse('login_required', 'the user is not signed in');
    return { kind: 'redirect', location: az.interactionUrl(req) };
  }

  // 12. Consent (AS-28): the console asks for it, after proving the user again with its own session.
  if (await az.consentNeeded(req, client, sso.account.id)) {
    if (passive) return refuse('consent_required', 'the user has not authorized this client');
    return { kind: 'redirect', location: az.interactionUrl(req) };
  }

  // 13. The code (RFC 6749 §4.1.2).
  const location = await az.issueCode(req, { accountId: sso.account.id, authTime: sso.authTime, sid: sso.session.id });
  return { kind: 'redirect', location };
}
