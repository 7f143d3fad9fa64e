/**
 * Attempt counters in Redis (REDIS_URL), keys `realm:{id}:throttle-{kind}:{hash}`. Each
 * decision is one Lua script, so parallel attempts on several processes all count and a
 * blocked key refuses them all. Redis expiry only cleans up; decisions use the stored times
 * and the injected clock. Redis away → 503 (A-46: fail closed, never skipped).
 */
import { redisKey, viaRedis, type RedisClient } from '../../platform/redis.js';
import { blockRuns, type ThrottlePolicy } from './defaults.js';
import type { PolicedKey, Reservation, ThrottleKey, ThrottleStore } from './store.js';

// blockFor over the runs passed as ARGV[4..]: pairs (lastCount, ms), then the cap.
const BLOCK_FOR = `
local function blockFor(n)
  for i = 4, #ARGV - 1, 2 do
    if n <= tonumber(ARGV[i]) then return tonumber(ARGV[i + 1]) end
  end
  return tonumber(ARGV[#ARGV])
end`;

// KEYS[1]; ARGV: now, windowMs, keepMs, runs…, beyond
const RESERVE = `${BLOCK_FOR}
local h = redis.call('HMGET', KEYS[1], 'n', 'last', 'until')
local n = tonumber(h[1] or '0')
local last = tonumber(h[2] or '0')
local blocked = tonumber(h[3] or '0')
local now = tonumber(ARGV[1])
if last < now - tonumber(ARGV[2]) then n = 0 elseif blocked > now then return {0, n, tostring(blocked)} end
n = n + 1
local untilMs = now + blockFor(n)
redis.call('HSET', KEYS[1], 'n', n, 'last', now, 'until', untilMs)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, n, tostring(untilMs)}`;

// KEYS[1]; ARGV: -, -, -, runs…, beyond
const RELEASE = `${BLOCK_FOR}
local h = redis.call('HMGET', KEYS[1], 'n', 'last')
local n = tonumber(h[1] or '0')
if n <= 0 then return 0 end
n = n - 1
redis.call('HSET', KEYS[1], 'n', n, 'until', tonumber(h[2]) + blockFor(n))
return 1`;

/** Keys outlive any window or lock of the policy; the stored times decide. */
const KEEP_MS = 25 * 60 * 60 * 1000;

const runArgs = (policy: ThrottlePolicy): number[] => {
  const { runs, beyond } = blockRuns(policy);
  return [...runs.flat(), beyond];
};

export function createRedisThrottleStore(redis: RedisClient): ThrottleStore {
  const keyOf = (k: ThrottleKey) => redisKey(k.realmId, `throttle-${k.kind}`, k.keyHash);
  // Commands issued together travel pipelined on one connection: one round trip per call.
  const reserveOne = async ({ key, policy }: PolicedKey, now: number): Promise<Reservation> => {
    const [admitted, failures, until] = (await redis.eval(RESERVE, 1, keyOf(key), now, policy.windowMs, KEEP_MS, ...runArgs(policy))) as [
      number,
      number,
      string,
    ];
    return admitted === 1 ? { admitted: true, failures: Number(failures), blockedUntil: Number(until) } : { admitted: false, blockedUntil: Number(until) };
  };
  return {
    kind: 'redis',
    reserve: (keys, now) => viaRedis(() => Promise.all(keys.map((k) => reserveOne(k, now)))),
    settle: (clear, release) =>
      viaRedis(async () => {
        await Promise.all([
          ...clear.map((k) => redis.del(keyOf(k))),
          ...release.map(({ key, policy }) => redis.eval(RELEASE, 1, keyOf(key), 0, 0, 0, ...runArgs(policy))),
        ]);
      }),
  };
}
