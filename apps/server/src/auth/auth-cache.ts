/**
 * What the guard resolves for a bearer token — session, account, principal — kept in the
 * process's memory, without giving up instant revocation across instances (issue 11).
 *
 * Uncached, every authenticated request read the session, the account and the role
 * bindings (three queries, the roles' JSON parsed anew): most of the cost of a read such as
 * GET /api/perm/user/info. Cached, a request reads one tiny row instead: the auth epoch
 * (migration 0021), which database triggers bump in the same transaction as any change the
 * guard decides on (an account changed or deleted, a session revoked or deleted, a role, a
 * binding or a service account's grants changed). An entry is used only while the epoch it was read under is still the
 * current one, so a logout, a disable or a role change committed on any instance is seen by
 * every instance at its next request — the guarantee the uncached reads gave.
 *
 * Why the epoch is read on every request rather than pushed (LISTEN/NOTIFY, Redis pub/sub):
 * a notice travels on another connection and may arrive after a request sent once the
 * change was answered, so an instance could still honour a token revoked a moment before.
 * The read keeps the guarantee; concurrent requests share one read (`freshEpoch`) as long as
 * it started after they arrived, so under load it costs a fraction of a query per request.
 *
 * Other limits: an entry is re-read when the session was last seen (per the database) more
 * than `freshForMs` ago, so idle timeouts and the touch of last_seen_at stay the uncached
 * path's business, and sign-in bookkeeping (last login time, which the epoch ignores) is at
 * most that old; at most `maxEntries` entries. The epoch must be read where writes commit
 * (the primary): a lagging read replica would defeat it.
 */
import type { Account } from '../accounts/accounts.repo.js';
import type { Principal } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import { deepFreeze } from '../platform/shared-read.js';
import type { Session } from './sessions.repo.js';

export interface Resolved {
  session: Session;
  account: Account;
  principal: Principal;
  /**
   * Shared by every request this entry serves, and dropped with it: what a handler derives
   * from this session, account and principal alone, or from tables that bump the epoch too
   * (realms), may be kept here — such as an answer's serialized body (issue 11). Nothing that
   * another table decides (an OTP secret, a setting) belongs here: no epoch guards it.
   */
  memo: Map<string, unknown>;
}

export interface AuthCacheDeps {
  /** the current auth epoch, read after the call and shared between callers (auth-cache.repo.ts `fresh`) */
  readEpoch(): Promise<number>;
  /** the uncached path: the live session and enabled account behind a token's hash, or undefined */
  authenticateHash(tokenHash: string): Promise<{ session: Session; account: Account } | undefined>;
  loadPrincipal(account: Account): Promise<Principal>;
  clock: Clock;
  /** an entry is used only while its session was last seen less than this long ago */
  freshForMs: number;
  maxEntries?: number;
}

interface Entry extends Resolved {
  epoch: number;
}

export function createAuthCache(deps: AuthCacheDeps) {
  const { clock, freshForMs } = deps;
  const maxEntries = deps.maxEntries ?? 10_000;
  const freshEpoch = deps.readEpoch;
  const entries = new Map<string, Entry>();
  let epochSeen = 0;
  const counters = { hits: 0, misses: 0 };

  function remember(key: string, entry: Entry): void {
    if (entry.epoch !== epochSeen) return;
    entries.delete(key);
    // Oldest first out: Map keeps insertion order.
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, entry);
  }

  /** Session and account are copied per request: a handler changing its copy changes no other request's. */
  const view = (e: Entry): Resolved => ({ session: { ...e.session }, account: { ...e.account }, principal: e.principal, memo: e.memo });

  /** What a token's hash stands for now, or undefined (unknown, revoked, expired, idle, disabled). */
  async function resolve(tokenHash: string): Promise<Resolved | undefined> {
    const epoch = await freshEpoch();
    if (epoch !== epochSeen) {
      // Something changed somewhere (or the database was restored): every entry was read under another epoch.
      entries.clear();
      epochSeen = epoch;
    }
    const now = clock.now();
    const hit = entries.get(tokenHash);
    if (hit && hit.epoch === epoch && hit.session.expires_at > now && now - hit.session.last_seen_at <= freshForMs) {
      counters.hits++;
      return view(hit);
    }
    counters.misses++;
    // Read after the epoch: if a change commits in between, the epoch moves on and this entry
    // (stamped with the older one) is never used.
    const found = await deps.authenticateHash(tokenHash);
    if (!found) {
      entries.delete(tokenHash);
      return undefined;
    }
    // Frozen: the principal is shared by every request that hits this entry.
    const principal = deepFreeze(await deps.loadPrincipal(found.account));
    const entry: Entry = { ...found, principal, epoch, memo: new Map() };
    remember(tokenHash, entry);
    return view(entry);
  }

  return {
    resolve,
    /** hits and misses since start, and entries held (tests check the cache is really used) */
    stats: () => ({ ...counters, entries: entries.size }),
  };
}

export type AuthCache = ReturnType<typeof createAuthCache>;
