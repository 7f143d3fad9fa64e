/**
 * The clients that authenticate at the provider's back-channel endpoints (token,
 * introspection, revocation, device authorization), kept in each instance's memory (issue 12
 * bench: reading and parsing the client row was the token endpoint's one query, and most of
 * its cost after the signature).
 *
 * Validated as the guard's cache is (auth/auth-cache.ts): an entry is used only while the auth
 * epoch it was read under is still the current one, and the epoch is read on every call
 * (concurrent calls share one read). Every update or delete of a client row bumps the epoch by
 * trigger (migration 0032), whoever writes it — the repository, a cascade from a realm, an
 * owner account or a parent client, an operator's SQL. So a client disabled, deleted, its
 * secret regenerated or its source ranges narrowed on any instance is refused by every
 * instance at its next request.
 *
 * Only clients found are kept: an unknown client id costs the query it always did, and a
 * client created later is found at once. Entries are frozen: a request cannot change what the
 * next one is given.
 */
import { deepFreeze } from '../platform/shared-read.js';
import type { OAuthClient } from './clients.repo.js';

export interface ClientCacheDeps {
  /** the uncached lookup (clients.repo.ts findByClientId) */
  findByClientId(realmId: string, clientId: string): Promise<OAuthClient | undefined>;
  /** the current auth epoch, read after the call and shared between callers (auth/auth-cache.repo.ts `fresh`) */
  readEpoch(): Promise<number>;
  maxEntries?: number;
}

export function createClientCache(deps: ClientCacheDeps) {
  const maxEntries = deps.maxEntries ?? 10_000;
  const freshEpoch = deps.readEpoch;
  const entries = new Map<string, OAuthClient>();
  let epochSeen = 0;
  const counters = { hits: 0, misses: 0 };

  /** The client `clientId` of `realmId` as it is now, or undefined. */
  async function findByClientId(realmId: string, clientId: string): Promise<OAuthClient | undefined> {
    const epoch = await freshEpoch();
    if (epoch !== epochSeen) {
      // something changed somewhere: every entry was read under another epoch
      entries.clear();
      epochSeen = epoch;
    }
    const key = `${realmId}\0${clientId}`;
    const hit = entries.get(key);
    if (hit) {
      counters.hits++;
      return hit;
    }
    counters.misses++;
    // Read after the epoch: a change committed in between moves the epoch on, and the entry
    // below (kept only while `epoch` is still the one seen) is dropped at the next call.
    const found = await deps.findByClientId(realmId, clientId);
    entries.delete(key);
    if (!found) return undefined;
    const client = deepFreeze(found);
    if (epoch === epochSeen) {
      // oldest first out: Map keeps insertion order
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, client);
    }
    return client;
  }

  return {
    findByClientId,
    /** hits and misses since start, and entries held (tests check the cache is really used) */
    stats: () => ({ ...counters, entries: entries.size }),
  };
}

export type ClientCache = ReturnType<typeof createClientCache>;
