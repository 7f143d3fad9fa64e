/**
 * One-time codes and counters in Redis (issue 3), keys `realm:{id}:{type}:{hash}`. Each
 * check is one Lua script, so checking and consuming are atomic across processes. Any
 * Redis failure is a 503 (A-46: fail closed).
 */
import { redisKey, viaRedis, type RedisClient } from '../platform/redis.js';
import { windowOf, type CheckResult, type CodeAttempt, type CodeKey, type CodeStore, type CounterKey, type NewCode } from './store.js';

// KEYS[1] code; ARGV: code, serial, subject, created, expires, now, minInterval, ttlMs
const PUT = `
local created = redis.call('HGET', KEYS[1], 'created')
if created and tonumber(created) > tonumber(ARGV[6]) - tonumber(ARGV[7]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'code', ARGV[1], 'serial', ARGV[2], 'subject', ARGV[3], 'created', ARGV[4], 'exp', ARGV[5], 'att', 0, 'used', 0)
redis.call('PEXPIRE', KEYS[1], ARGV[8])
return 1`;

// KEYS[1] code; ARGV: code, serial, now, maxAttempts, keep (1: do not consume a right answer)
const CHECK = `
local h = redis.call('HMGET', KEYS[1], 'code', 'serial', 'exp', 'att', 'used', 'subject')
if not h[1] then return {'missing'} end
if h[5] == '1' then return {'used'} end
if tonumber(h[3]) <= tonumber(ARGV[3]) then return {'expired'} end
if tonumber(h[4]) >= tonumber(ARGV[4]) then return {'locked'} end
if h[1] == ARGV[1] and h[2] == ARGV[2] then
  if ARGV[5] ~= '1' then redis.call('HSET', KEYS[1], 'used', '1') end
  return {'ok', h[6]}
end
redis.call('HINCRBY', KEYS[1], 'att', 1)
if h[2] ~= ARGV[2] then return {'mismatch'} end
return {'wrong'}`;

// KEYS[1] code; ARGV: serial, tries
const SPEND = `
local h = redis.call('HMGET', KEYS[1], 'serial', 'used')
if h[1] == ARGV[1] and h[2] ~= '1' then redis.call('HINCRBY', KEYS[1], 'att', ARGV[2]) end
return 1`;

// KEYS[1] counter
const RELEASE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 1`;

// KEYS[1] counter; ARGV: ttlMs
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** Redis expiry only cleans up; decisions use the stored times and the injected clock. */
const CLEANUP_SLACK_MS = 60_000;

export function createRedisCodeStore(redis: RedisClient): CodeStore {
  const codeKey = (k: CodeKey) => redisKey(k.realmId, `code:${k.purpose}`, k.targetHash);
  const counterKey = (k: CounterKey) => redisKey(k.realmId, `counter:${k.name}`, `${k.keyHash}:${windowOf(k).index}`);

  return {
    kind: 'redis',

    async putCode(k: CodeKey, c: NewCode, minIntervalMs: number): Promise<boolean> {
      const ttl = Math.max(c.expiresAt - c.createdAt, minIntervalMs) + CLEANUP_SLACK_MS;
      const res = await viaRedis(() =>
        redis.eval(PUT, 1, codeKey(k), c.codeHash, c.serialNo, c.subject, c.createdAt, c.expiresAt, c.createdAt, minIntervalMs, ttl),
      );
      return Number(res) === 1;
    },

    async checkCode(k: CodeKey, a: CodeAttempt): Promise<CheckResult> {
      const res = (await viaRedis(() => redis.eval(CHECK, 1, codeKey(k), a.codeHash, a.serialNo, a.now, a.maxAttempts, a.keep ? 1 : 0))) as string[];
      if (res[0] === 'ok') return { status: 'ok', subject: res[1] ?? '' };
      return { status: res[0] as Exclude<CheckResult['status'], 'ok'> };
    },

    async spendTries(k: CodeKey, serialNo: string, tries: number): Promise<void> {
      await viaRedis(() => redis.eval(SPEND, 1, codeKey(k), serialNo, Math.max(0, Math.floor(tries))));
    },

    async hitCounter(k: CounterKey): Promise<number> {
      return Number(await viaRedis(() => redis.eval(HIT, 1, counterKey(k), k.windowMs + CLEANUP_SLACK_MS)));
    },

    // Issued together, these travel pipelined: one round trip.
    hitCounters: (keys: CounterKey[]) =>
      viaRedis(() => Promise.all(keys.map(async (k) => Number(await redis.eval(HIT, 1, counterKey(k), k.windowMs + CLEANUP_SLACK_MS))))),

    async releaseCounters(keys: CounterKey[]): Promise<void> {
      await viaRedis(() => Promise.all(keys.map((k) => redis.eval(RELEASE, 1, counterKey(k)))));
    },

    async clearCounter(k: CounterKey): Promise<void> {
      await viaRedis(() => redis.del(counterKey(k)));
    },
  };
}
