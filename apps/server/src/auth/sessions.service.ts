/**
 * Console sessions (SPEC §4, §9): a random bearer token valid 7 days, stored only as a keyed
 * hash, revocable server-side so logout really ends it. A-36: a session unused for
 * SESSION_IDLE_HOURS (config.ts) ends earlier; use keeps it alive up to the 7 days.
 */
import { LIMITS } from '@umbo/contracts';
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import type { Principal } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db.js';
import { newId, randomString, type Secrets } from '../platform/crypto.js';
import { createAuthCache, type Resolved } from './auth-cache.js';
import type { Session, SessionRepo } from './sessions.repo.js';

const TOKEN_PURPOSE = 'session';
/** Last-seen times are written at most this often, to keep reads read-only. */
const TOUCH_EVERY_MS = 60_000;

export interface IssuedSession {
  token: string;
  session: Session;
}

export interface SessionServiceDeps {
  sessions: SessionRepo;
  accounts: AccountRepo;
  secrets: Secrets;
  clock: Clock;
  idleMs: number;
  /** the guard's principal of an account (perm) */
  loadPrincipal(account: Account): Promise<Principal>;
  /** the current auth epoch (auth-cache.repo.ts) */
  readEpoch(): Promise<number>;
}

export function createSessionService(deps: SessionServiceDeps) {
  const { sessions, accounts, secrets, clock, idleMs } = deps;
  const tokenHash = (token: string) => secrets.hash(TOKEN_PURPOSE, token);

  /**
   * `authTime`: when the holder really authenticated, for a session issued on the strength of
   * another (OAuth SSO, migration 0023). `trx`: the sign-in's transaction (its writes commit together).
   */
  async function issue(
    account: Account,
    meta: { ip: string; userAgent: string },
    opts: { authTime?: number; trx?: Db | undefined } = {},
  ): Promise<IssuedSession> {
    const now = clock.now();
    // 48 base62 characters ≈ 285 bits (AS-12).
    const token = randomString(48);
    const session: Session = {
      id: newId(),
      realm_id: account.realm_id,
      account_id: account.id,
      token_hash: tokenHash(token),
      created_at: now,
      expires_at: now + LIMITS.tokenLifetimeMs,
      last_seen_at: now,
      revoked_at: null,
      auth_time: opts.authTime ?? null,
      ip: meta.ip.slice(0, 64),
      user_agent: meta.userAgent.slice(0, 512),
    };
    await sessions.insertSession(session, opts.trx);
    return { token, session };
  }

  /**
   * The live session and enabled account behind a token's hash, or undefined; writes
   * last_seen_at at most once a minute (the answer carries the value written). Two lookups:
   * joining them into one query measured no faster here (scripts/bench/guard-parts.ts) and
   * runs only when the guard's cache misses.
   */
  async function authenticateHash(hash: string): Promise<{ session: Session; account: Account } | undefined> {
    const session = await sessions.findSessionByTokenHash(hash);
    const now = clock.now();
    if (!session || session.revoked_at !== null || session.expires_at <= now) return undefined;
    // last_seen_at is written at most once a minute, so idleness is known to that precision.
    if (now - session.last_seen_at > idleMs) return undefined;
    const account = await accounts.findAccountById(session.realm_id, session.account_id);
    if (!account || account.disabled) return undefined;
    if (now - session.last_seen_at > TOUCH_EVERY_MS) {
      await sessions.touchSession(session.id, now);
      return { session: { ...session, last_seen_at: now }, account };
    }
    return { session, account };
  }

  /** The live session and enabled account behind a token, or undefined (uncached: credentials other than the guard's). */
  function authenticate(token: string): Promise<{ session: Session; account: Account } | undefined> {
    if (!token || token.length > 256) return Promise.resolve(undefined);
    return authenticateHash(tokenHash(token));
  }

  // Entries are re-read once their session was last seen a minute ago: that is when the
  // uncached path would touch it, and an idle timeout is never shorter than that.
  const cache = createAuthCache({
    readEpoch: deps.readEpoch,
    authenticateHash,
    loadPrincipal: deps.loadPrincipal,
    clock,
    freshForMs: Math.min(TOUCH_EVERY_MS, idleMs),
  });

  /**
   * What the guard needs for a bearer token — session, account, principal — or undefined;
   * served from memory while nothing it depends on changed anywhere (auth-cache.ts).
   */
  function resolve(token: string): Promise<Resolved | undefined> {
    if (!token || token.length > 256) return Promise.resolve(undefined);
    return cache.resolve(tokenHash(token));
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
    resolve,
    cacheStats: cache.stats,
    liveAccountOf,
    revoke: (s: Session) => sessions.revokeSession(s.realm_id, s.id, clock.now()),
    revokeAll: (a: Account, exceptId?: string) => sessions.revokeAccountSessions(a.realm_id, a.id, clock.now(), exceptId),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
