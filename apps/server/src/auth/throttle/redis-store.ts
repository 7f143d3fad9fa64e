/**
 * Failure counters in Redis (REDIS_URL), keys `realm:{id}:throttle-{kind}:{hash}`. Counting is
 * one Lua script, so parallel failures on several processes all count. Redis expiry only
 * cleans up; decisions use the stored times and the injected clock. Redis away → 503
 * fail closed, a throttle is never skipped).
 */
import { redisKey, viaRedis, type RedisClient } from '../../platform/redis.js';
import type { ThrottleKey, ThrottleState, ThrottleStore } from './store.js';

// KEYS[1]; ARGV: now, windowMs, ttlMs
const RECORD = `
local h = redis.call('HMGET', KEYS[1], 'n', 'last')
local n = tonumber(h[1] or '0')
local last = tonumber(h[2] or '0')
if last < tonumber(ARGV[1]) - tonumber(ARGV[2]) then n = 0 end
n = n + 1
redis.call('HSET', KEYS[1], 'n', n, 'last', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return n`;

// KEYS[1]; ARGV: until
const BLOCK = `
local cur = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if cur < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'until', ARGV[1]) end
return 1`;

/** Keys outlive any window or lock of the policy; the stored times decide. */
const KEEP_MS = 25 * 60 * 60 * 1000;

export function createRedisThrottleStore(redis: RedisClient): ThrottleStore {
  const keyOf = (k: ThrottleKey) => redisKey(k.realmId, `throttle-${k.kind}`, k.keyHash);
  const get = (k: ThrottleKey): Promise<ThrottleState | undefined> =>
    viaRedis(async () => {
      const [n, last, until] = await redis.hmget(keyOf(k), 'n', 'last', 'until');
      if (n === null) return undefined;
      return { failures: Number(n), lastFailureAt: Number(last ?? 0), blockedUntil: Number(until ?? 0) };
    });
  return {
    kind: 'redis',
    // Commands sent together on one ioredis connection travel pipelined: one round trip.
    getMany: (keys) => Promise.all(keys.map(get)),
    recordFailure: (k, now, windowMs) => viaRedis(async () => Number(await redis.eval(RECORD, 1, keyOf(k), now, windowMs, KEEP_MS))),
    block: (k, until) =>
      viaRedis(async () => {
        await redis.eval(BLOCK, 1, keyOf(k), until);
      }),
    clear: (k) =>
      viaRedis(async () => {
        await redis.del(keyOf(k));
      }),
  };
}
