/**
 * One read shared by concurrent callers (the auth epoch of auth/auth-cache.ts, the realm
 * settings cache of realms/realm-policy.ts): under load, many requests pay for one query.
 */

/**
 * `read()` shared by concurrent callers, each getting a value read after it called: a caller
 * arriving while a read is under way waits for the next one, which all such callers share.
 */
export function sharedFreshRead(read: () => Promise<number>): () => Promise<number> {
  let running: Promise<number> | undefined;
  let queued: Promise<number> | undefined;
  const start = (): Promise<number> => {
    const p: Promise<number> = read().finally(() => {
      if (running === p) running = undefined;
    });
    running = p;
    return p;
  };
  return () => {
    if (!running) return start();
    if (!queued) {
      const ignore = () => undefined;
      queued = running.then(ignore, ignore).then(() => {
        queued = undefined;
        // A read started since the one waited for began after every queued caller arrived.
        return running ?? start();
      });
    }
    return queued;
  };
}

/** Frozen all the way down: a value shared by every request that reads it cannot be changed by one of them. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
