/**
 * Keep-alive connections to IT-interface backends (issue 14 bench: a fresh TCP (and TLS)
 * connection per sign-in costs more than the 2 ms we may add). One guarded agent
 * (notify/outbound.ts guardedAgent, A-37) per scheme + host + port + allowPrivate: every new
 * socket is resolved and checked as a one-off call is, and a socket only ever serves the
 * target it was checked for. A realm whose host, port or scheme changes therefore gets a new
 * agent; the old one's idle sockets close after IDLE_MS and the empty agent is dropped, which
 * is also what happens to the agents of a deleted realm. Realms that name the same origin
 * share its sockets: a socket carries no credential, each request is signed on its own.
 */
import type http from 'node:http';
import { guardedAgent, type Resolver } from '../../notify/outbound.js';

export const POOL_MAX_SOCKETS = 64;
export const POOL_IDLE_MS = 30_000;

export interface ItPoolOptions {
  maxSockets?: number;
  idleMs?: number;
  now?: () => number;
}

interface Entry {
  agent: http.Agent;
  lastUsed: number;
}

const count = (m: NodeJS.ReadOnlyDict<unknown[]>) => Object.values(m).reduce((n, list) => n + (list?.length ?? 0), 0);

export function createItPool(o: ItPoolOptions = {}) {
  const maxSockets = o.maxSockets ?? POOL_MAX_SOCKETS;
  const idleMs = o.idleMs ?? POOL_IDLE_MS;
  const now = o.now ?? Date.now;
  const entries = new Map<string, Entry>();
  // an injected resolver (tests playing DNS) gets agents of its own, never the system's
  const resolverIds = new WeakMap<Resolver, number>();
  let nextResolverId = 1;
  let lastSweep = now();

  const busy = (a: http.Agent) => count(a.sockets) + count(a.freeSockets) + count(a.requests);

  /** Drops agents that have had no socket and no use for IDLE_MS (their sockets closed on their own). */
  function sweep(): void {
    const t = now();
    for (const [key, e] of entries) {
      if (busy(e.agent) === 0 && t - e.lastUsed >= idleMs) {
        e.agent.destroy();
        entries.delete(key);
      }
    }
    lastSweep = t;
  }

  return {
    /** The agent for this URL's origin under this allowPrivate (and resolver). */
    agentFor(url: URL, allowPrivate: boolean, resolve?: Resolver): http.Agent {
      if (now() - lastSweep >= 1000) sweep();
      let rid = 0;
      if (resolve) {
        rid = resolverIds.get(resolve) ?? nextResolverId++;
        resolverIds.set(resolve, rid);
      }
      const https = url.protocol === 'https:';
      const port = url.port || (https ? '443' : '80');
      const key = `${url.protocol}//${url.hostname}:${port}|${allowPrivate ? 'private-allowed' : 'public-only'}|${rid}`;
      let e = entries.get(key);
      if (!e) {
        e = { agent: guardedAgent({ https, allowPrivate, resolve, maxSockets, idleMs }), lastUsed: now() };
        entries.set(key, e);
      }
      e.lastUsed = now();
      return e.agent;
    },
    sweep,
    /** Open sockets (busy and idle) per origin key: tests and the bench look, nothing decides on it. */
    stats: (): { key: string; sockets: number; idle: number }[] =>
      [...entries].map(([key, e]) => ({ key, sockets: count(e.agent.sockets), idle: count(e.agent.freeSockets) })),
    /** Closes every socket (tests; process shutdown needs nothing: idle sockets are unref'd). */
    close(): void {
      for (const e of entries.values()) e.agent.destroy();
      entries.clear();
    },
  };
}

export type ItPool = ReturnType<typeof createItPool>;

/** The process's pool, shared by every realm's IT client. */
export const itPool = createItPool();
