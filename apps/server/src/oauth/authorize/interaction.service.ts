/**
 * The console's part of an OAuth sign-in (DESIGN.md §4): /user/loginSSO shows what a challenge
 * asks, the user signs in to the console, and the console's own session then proves the user:
 *   - login:    the account is of the request's realm and its sign-in is recent enough for
 *               prompt=login / max_age; an SSO session is issued (cookie); then consent or the code;
 *   - consent:  the same user approves or refuses; the record is kept (AS-28);
 *   - callback: SPEC §2's callback_uri links, a front door to the same flow, only to a URI the
 *               client registered (never an open redirect, AS-03).
 * Every URL the browser is sent to is made here: the client's registered redirect URI.
 */
import { ErrorCodes, OAUTH_SCOPES, type InteractionInfo, type InteractionNext } from '@umbo/contracts';
import type { Account } from '../../accounts/accounts.repo.js';
import type { Session } from '../../auth/sessions.repo.js';
import type { OAuthClient } from '../../clients/clients.repo.js';
import type { Clock } from '../../platform/clock.js';
import { ApiError, fail } from '../../platform/errors.js';
import { isPublicClient } from '../checks/check-pkce-request.js';
import { authTimeOf, type AuthorizeService } from './authorize.service.js';
import { CHALLENGE_TTL_MS, type Challenge } from './challenge.js';
import { needsFreshLogin, type AuthzRequest } from './request.js';

export interface ConsoleCaller {
  session: Session;
  account: Account;
  request: { ip: string; userAgent: string };
}

/** What a route must do besides answering: set the SSO cookie of the new session. */
export interface InteractionResult {
  answer: InteractionNext;
  sso?: { realmId: string; token: string; expiresAt: number };
}

/** Scopes a callback_uri link grants: who the user is and their profile, nothing offline. */
const CALLBACK_SCOPES = ['openid', 'profile'];

export function createInteractionService(deps: { authorize: AuthorizeService; clock: Clock }) {
  const { authorize: az, clock } = deps;

  const invalid = () => fail('OAUTH_CHALLENGE_INVALID');

  function open<T extends Challenge['typ']>(sealed: string, typ: T | readonly T[]) {
    const c = az.challenges.open(sealed, typ, clock.now());
    if (!c) throw invalid();
    return c;
  }

  /** The client of a pending request, still there and enabled. */
  async function clientOf(req: AuthzRequest): Promise<OAuthClient> {
    const client = await az.findClientById(req.clientRef);
    if (!client || client.disabled || client.realmId !== req.realmId) throw fail('OAUTH_CLIENT_UNAVAILABLE');
    return client;
  }

  function assertRealm(req: AuthzRequest, account: Account) {
    if (account.realm_id !== req.realmId) throw new ApiError(ErrorCodes.OAUTH_WRONG_REALM, { realmId: req.realmId });
  }

  /** After the user is proven: a new SSO session, then consent (if needed) or the code. */
  async function proceed(req: AuthzRequest, client: OAuthClient, caller: ConsoleCaller): Promise<InteractionResult> {
    const authTime = authTimeOf(caller.session);
    const issued = await az.issueSso(caller.account, authTime, caller.request);
    const sso = { realmId: req.realmId, token: issued.token, expiresAt: issued.session.expires_at };
    const subject = { accountId: caller.account.id, authTime, sid: issued.session.id };
    if (await az.consentNeeded(req, client, caller.account.id)) {
      const challenge = az.challenges.seal({ typ: 'oauth-consent', req, subject, exp: clock.now() + CHALLENGE_TTL_MS });
      return { answer: { next: 'consent', challenge }, sso };
    }
    return { answer: { next: 'redirect', redirectTo: await az.issueCode(req, subject) }, sso };
  }

  return {
    /** Public: what the sign-in and consent screens show (no account data). */
    async info(sealed: string): Promise<InteractionInfo> {
      const c = open(sealed, ['oauth-login', 'oauth-consent'] as const);
      const client = await clientOf(c.req);
      return {
        realmId: c.req.realmId,
        clientId: client.clientId,
        clientName: client.name,
        loginTips: client.loginTips,
        loginUrl: client.loginUrl,
        registUrl: client.registUrl,
        scopes: c.req.scope,
        consentRequired: client.consentRequired || c.req.prompt.includes('consent'),
        forceLogin: c.req.prompt.includes('login') || c.req.maxAge !== undefined,
        stage: c.typ === 'oauth-login' ? 'login' : 'consent',
        expiresAt: c.exp,
      };
    },

    /** The console's signed-in session proves the user of a pending request. */
    async login(sealed: string, caller: ConsoleCaller): Promise<InteractionResult> {
      const { req } = open(sealed, 'oauth-login');
      assertRealm(req, caller.account);
      // prompt=login: a sign-in after the request; max_age: one recent enough (OIDC Core §3.1.2.1)
      if (needsFreshLogin(req, authTimeOf(caller.session), clock.now())) throw fail('OAUTH_LOGIN_AGAIN');
      return proceed(req, await clientOf(req), caller);
    },

    /** The user's answer on the consent screen: approved → the record and the code; refused → access_denied to the client. */
    async consent(sealed: string, approve: boolean, caller: ConsoleCaller): Promise<InteractionResult> {
      const { req, subject } = open(sealed, 'oauth-consent');
      // the same user whose sign-in made this step, with that SSO session still standing
      if (caller.account.id !== subject.accountId) throw invalid();
      if (subject.sid && (await az.liveAccountOf(req.realmId, subject.sid)) !== subject.accountId) throw fail('OAUTH_LOGIN_AGAIN');
      const client = await clientOf(req);
      if (!approve) {
        await az.recordRefusal(req, client, caller.account, caller.request);
        return { answer: { next: 'redirect', redirectTo: az.errorUrl(req, 'access_denied', 'the user refused the authorization') } };
      }
      await az.recordConsent(req, client, caller.account, caller.request);
      return { answer: { next: 'redirect', redirectTo: await az.issueCode(req, subject) } };
    },

    /**
     * SPEC §2 callback_uri link: a code for callback_uri ONLY when it is exactly one of the
     * client's registered redirect URIs. Confidential clients only: the code is issued without
     * a PKCE challenge (the link carries none), and a public client must use PKCE (AS-05).
     */
    async callback(
      body: { client_id: string; callback_uri: string; state?: string | undefined; realm_id: string },
      caller: ConsoleCaller,
    ): Promise<InteractionResult> {
      const client = await az.findClient(body.realm_id, body.client_id);
      const refused = () => new ApiError(ErrorCodes.OAUTH_CALLBACK_REFUSED);
      if (!client || client.disabled || isPublicClient(client) || !client.grantTypes.includes('authorization_code')) throw refused();
      if (!client.redirectUris.includes(body.callback_uri)) throw refused();
      const req: AuthzRequest = {
        realmId: body.realm_id,
        clientRef: client.id,
        clientId: client.clientId,
        redirectUri: body.callback_uri,
        redirectUriGiven: true,
        scope: CALLBACK_SCOPES.filter((s) => client.scopes.includes(s) && (OAUTH_SCOPES as readonly string[]).includes(s)),
        state: body.state || undefined,
        prompt: [],
        at: clock.now(),
      };
      assertRealm(req, caller.account);
      return proceed(req, client, caller);
    },
  };
}

export type InteractionService = ReturnType<typeof createInteractionService>;
