/**
 * Console sessions (SPEC §4, §9): a random bearer token valid 7 days, stored only as a keyed
 * hash, revocable server-side so logout really ends it. A-36: a session unused for
 * SESSION_IDLE_HOURS (config.ts) ends earlier; use keeps it alive up to the 7 days.
 */
import { LIMITS } from '@umbo/contracts';
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import type { Clock } from '../platform/clock.js';
import { newId, randomString, type Secrets } from '../platform/crypto.js';
import type { Session, SessionRepo } from './sessions.repo.js';

const TOKEN_PURPOSE = 'session';
/** Last-seen times are written at most this often, to keep reads read-only. */
const TOUCH_EVERY_MS = 60_000;

export interface IssuedSession {
  token: string;
  session: Session;
}

export function createSessionService(deps: { sessions: SessionRepo; accounts: AccountRepo; secrets: Secrets; clock: Clock; idleMs: number }) {
  const { sessions, accounts, secrets, clock, idleMs } = deps;

  async function issue(account: Account, meta: { ip: string; userAgent: string }): Promise<IssuedSession> {
    const now = clock.now();
    // 48 base62 characters ≈ 285 bits (AS-12).
    const token = randomString(48);
    const session: Session = {
      id: newId(),
      realm_id: account.realm_id,
      account_id: account.id,
      token_hash: secrets.hash(TOKEN_PURPOSE, token),
      created_at: now,
      expires_at: now + LIMITS.tokenLifetimeMs,
      last_seen_at: now,
      revoked_at: null,
      ip: meta.ip.slice(0, 64),
      user_agent: meta.userAgent.slice(0, 512),
    };
    await sessions.insertSession(session);
    return { token, session };
  }

  /** The live session and enabled account behind a token, or undefined. */
  async function authenticate(token: string): Promise<{ session: Session; account: Account } | undefined> {
    if (!token || token.length > 256) return undefined;
    const session = await sessions.findSessionByTokenHash(secrets.hash(TOKEN_PURPOSE, token));
    const now = clock.now();
    if (!session || session.revoked_at !== null || session.expires_at <= now) return undefined;
    // last_seen_at is written at most once a minute, so idleness is known to that precision.
    if (now - session.last_seen_at > idleMs) return undefined;
    const account = await accounts.findAccountById(session.realm_id, session.account_id);
    if (!account || account.disabled) return undefined;
    if (now - session.last_seen_at > TOUCH_EVERY_MS) await sessions.touchSession(session.id, now);
    return { session, account };
  }

  /**
   * The account of a session that still stands (not revoked, expired or idle), else
   * undefined: what a credential derived from a session (an ftoken) checks before it is honoured.
   */
  async function liveAccountOf(realmId: string, sessionId: string): Promise<string | undefined> {
    const s = sessionId ? await sessions.findSessionById(realmId, sessionId) : undefined;
    const now = clock.now();
    return s && s.revoked_at === null && s.expires_at > now && now - s.last_seen_at <= idleMs ? s.account_id : undefined;
  }

  return {
    issue,
    authenticate,
    liveAccountOf,
    revoke: (s: Session) => sessions.revokeSession(s.realm_id, s.id, clock.now()),
    revokeAll: (a: Account, exceptId?: string) => sessions.revokeAccountSessions(a.realm_id, a.id, clock.now(), exceptId),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
