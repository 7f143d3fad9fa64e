/**
 * What the authorization endpoint and the console's interaction API share: the browser SSO
 * session, the consent decision and record, the code, and the URLs the browser is sent to.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { Session } from '../../auth/sessions.repo.js';
import type { SessionService } from '../../auth/sessions.service.js';
import type { OAuthClient } from '../../clients/clients.repo.js';
import type { Clock } from '../../platform/clock.js';
import { randomString, type Secrets } from '../../platform/crypto.js';
import type { Transact } from '../../platform/db.js';
import { CODE_TTL_SEC } from '../defaults.js';
import type { OAuthCodeRepo } from '../store/codes.repo.js';
import type { OAuthConsentRepo } from '../store/consents.repo.js';
import { CHALLENGE_TTL_MS, createChallenges } from './challenge.js';
import { errorRedirect, successRedirect } from './redirect.js';
import type { AuthzRequest, AuthzSubject } from './request.js';

/** Purpose of the keyed hash codes are stored under (AS-12; also what the token endpoint hashes with). */
export const CODE_HASH_PURPOSE = 'oauth-code';
/** 43 characters of [A-Za-z0-9] ≈ 256 bits (AS-12: ≤ 2^-160 guess probability). */
export const CODE_LENGTH = 43;

export interface SsoSession {
  session: Session;
  account: Account;
  /** ms: when the user authenticated */
  authTime: number;
}

export const authTimeOf = (s: Pick<Session, 'auth_time' | 'created_at'>) => Number(s.auth_time ?? s.created_at);

export interface AuthorizeServiceDeps {
  /** the realm's display name, undefined when there is no such realm */
  realmName(realmId: string): Promise<string | undefined>;
  findClient(realmId: string, clientId: string): Promise<OAuthClient | undefined>;
  findClientById(id: string): Promise<OAuthClient | undefined>;
  codes: OAuthCodeRepo;
  consents: OAuthConsentRepo;
  sessions: Pick<SessionService, 'issue' | 'authenticate' | 'liveAccountOf' | 'revoke'>;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  audit: Pick<AuditService, 'record'>;
  issuer(realmId: string): string;
  /** the console's origin (config.publicUrl), where /user/loginSSO lives */
  publicUrl: string;
}

export function createAuthorizeService(deps: AuthorizeServiceDeps) {
  const { codes, consents, sessions, secrets, clock } = deps;
  const challenges = createChallenges(secrets);

  /** The browser's SSO session in this realm, if the cookie names a live one of an enabled account. */
  async function ssoOf(realmId: string, token: string | undefined): Promise<SsoSession | undefined> {
    if (!token) return undefined;
    const found = await sessions.authenticate(token);
    if (!found || found.session.realm_id !== realmId) return undefined;
    return { ...found, authTime: authTimeOf(found.session) };
  }

  /**
   * A new SSO session for the account (a new id at every sign-in: no fixation, A-36), carrying
   * the time the user really authenticated.
   */
  function issueSso(account: Account, authTime: number, meta: { ip: string; userAgent: string }) {
    return sessions.issue(account, meta, { authTime });
  }

  /** AS-28: asked when the client wants consent and no record covers every requested scope, or on prompt=consent. */
  async function consentNeeded(req: AuthzRequest, client: OAuthClient, accountId: string): Promise<boolean> {
    if (req.prompt.includes('consent')) return true;
    if (!client.consentRequired) return false;
    const record = await consents.find(accountId, client.id);
    if (!record) return true;
    const granted = new Set(record.scope.split(' '));
    return req.scope.some((s) => !granted.has(s));
  }

  /** Records (or widens) the user's grant to the client, with its audit event, in one transaction. */
  async function recordConsent(req: AuthzRequest, client: OAuthClient, account: Account, request: { ip: string; userAgent: string }): Promise<void> {
    const now = clock.now();
    await deps.transact(async (trx) => {
      const existing = await consents.find(account.id, client.id, trx);
      const scope = [...new Set([...(existing?.scope.split(' ').filter(Boolean) ?? []), ...req.scope])].join(' ');
      await consents.upsert({ realmId: req.realmId, accountId: account.id, clientRef: client.id, scope, now }, trx);
      await deps.audit.record(
        {
          realmId: req.realmId,
          actor: { id: account.id, name: account.username },
          action: 'oauth.consent.granted',
          target: { type: 'client', id: client.clientId, name: client.name },
          result: 'ok',
          request,
          detail: { scope: req.scope.join(' ') },
        },
        trx,
      );
    });
  }

  async function recordRefusal(req: AuthzRequest, client: OAuthClient, account: Account, request: { ip: string; userAgent: string }) {
    await deps.audit.record({
      realmId: req.realmId,
      actor: { id: account.id, name: account.username },
      action: 'oauth.consent.denied',
      target: { type: 'client', id: client.clientId, name: client.name },
      result: 'ok',
      request,
      detail: { scope: req.scope.join(' ') },
    });
  }

  /**
   * A new authorization code for the subject, stored only as a keyed hash with everything the
   * token endpoint must check it against (client, redirect URI, PKCE challenge, scope, nonce,
   * auth_time, sid); answers the URL the browser goes to (RFC 6749 §4.1.2).
   * redirect_uri is stored '' when the request omitted it (RFC 6749 §4.1.3: then the token
   * request need not carry it).
   */
  async function issueCode(req: AuthzRequest, subject: AuthzSubject): Promise<string> {
    const code = randomString(CODE_LENGTH);
    const now = clock.now();
    await codes.insert({
      code_hash: secrets.hash(CODE_HASH_PURPOSE, code),
      realm_id: req.realmId,
      client_ref: req.clientRef,
      account_id: subject.accountId,
      redirect_uri: req.redirectUriGiven ? req.redirectUri : '',
      scope: req.scope.join(' '),
      nonce: req.nonce ?? null,
      code_challenge: req.codeChallenge ?? null,
      auth_time: subject.authTime,
      sid: subject.sid,
      parent_family_id: null,
      created_at: now,
      expires_at: now + CODE_TTL_SEC * 1000,
      used_at: null,
      family_id: null,
      response_sealed: null,
    });
    return successRedirect(req.redirectUri, code, req.state, deps.issuer(req.realmId));
  }

  const errorUrl = (req: Pick<AuthzRequest, 'redirectUri' | 'state' | 'realmId'>, error: string, description: string) =>
    errorRedirect(req.redirectUri, error, description, req.state, deps.issuer(req.realmId));

  /** The console's sign-in page for a pending request (DESIGN.md §4). */
  function interactionUrl(req: AuthzRequest): string {
    const challenge = challenges.seal({ typ: 'oauth-login', req, exp: clock.now() + CHALLENGE_TTL_MS });
    const q = new URLSearchParams({ challenge, realm_id: req.realmId, client_id: req.clientId });
    return `${deps.publicUrl}/user/loginSSO?${q.toString()}`;
  }

  return {
    challenges,
    realmName: deps.realmName,
    ssoOf,
    issueSso,
    consentNeeded,
    recordConsent,
    recordRefusal,
    issueCode,
    errorUrl,
    interactionUrl,
    findClient: deps.findClient,
    findClientById: deps.findClientById,
    liveAccountOf: sessions.liveAccountOf,
    revokeSso: sessions.revoke,
  };
}

export type AuthorizeService = ReturnType<typeof createAuthorizeService>;
