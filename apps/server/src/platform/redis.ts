/**
 * The optional Redis client (REDIS_URL; DESIGN.md §1): one-time codes, captchas and rate
 * counters shared by every server process. Keys are `realm:{id}:{type}:{hash}` (SECURITY.md
 * design rules). A command that cannot reach Redis fails fast instead of queueing forever,
 * and callers turn that into a 503 (A-46: fail closed, never skip a check).
 */
import type { Redis } from 'ioredis';
import { fail } from './errors.js';
import { onFirstUse } from './packages.js';

export type RedisClient = Redis;

/** ioredis is loaded by the first createRedis: a server without REDIS_URL never needs it (~2 MB of heap). */
const loadIoredis = onFirstUse<typeof import('ioredis')>('ioredis');

/**
 * `redis://host:port/db?keyPrefix=umbo:` — the optional keyPrefix lets several
 * deployments (or test runs) share one Redis without seeing each other's keys.
 */
export function createRedis(url: string): RedisClient {
  const parsed = new URL(url);
  const keyPrefix = parsed.searchParams.get('keyPrefix') ?? '';
  parsed.search = '';
  const { Redis: Client } = loadIoredis();
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
