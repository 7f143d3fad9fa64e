/**
 * The optional Redis client (REDIS_URL; DESIGN.md §1): one-time codes, captchas and rate
 * counters shared by every server process. Keys are `realm:{id}:{type}:{hash}` (SECURITY.md
 * design rules). A command that cannot reach Redis fails fast instead of queueing forever,
 * and callers turn that into a 503 (A-46: fail closed, never skip a check).
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { fail } from './errors.js';

export type RedisClient = Redis;

/**
 * ioredis is loaded on the first createRedis, not at start: a server without REDIS_URL never
 * needs it, and importing it costs ~2 MB of heap for the life of the process (issue 12 memory
 * budget). It is CommonJS, so require keeps createRedis synchronous.
 */
const requireDependency = createRequire(import.meta.url);

/**
 * `redis://host:port/db?keyPrefix=umbo:` — the optional keyPrefix lets several
 * deployments (or test runs) share one Redis without seeing each other's keys.
 */
export function createRedis(url: string): RedisClient {
  const parsed = new URL(url);
  const keyPrefix = parsed.searchParams.get('keyPrefix') ?? '';
  parsed.search = '';
  const { Redis: Client } = requireDependency('ioredis') as typeof import('ioredis');
  const client = new Client(parsed.toString(), {
    keyPrefix,
    connectTimeout: 2000,
    commandTimeout: 2000,
    // One retry, then the command fails: a request must not hang while Redis is away.
    maxRetriesPerRequest: 1,
    // Keep reconnecting in the background so service resumes once Redis is back.
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  });
  // Without a listener an unreachable Redis raises an uncaught 'error' event.
  client.on('error', () => {});
  return client;
}

export function redisKey(realmId: string, type: string, hash: string): string {
  return `realm:${realmId}:${type}:${hash}`;
}

/** Runs a Redis operation; any failure to reach Redis becomes 1201 (503), never a pass. */
export async function viaRedis<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw Object.assign(fail('DATABASE_ERROR'), { cause: err });
  }
}
