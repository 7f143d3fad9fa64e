/**
 * One read shared by concurrent callers (the auth epoch of auth/auth-cache.repo.ts, which the
 * guard's, the clients' and the realm settings' caches check): under load, many requests pay
 * for one query.
 */

/**
 * `read()` shared by concurrent callers, each getting a value read after it called: a caller
 * arriving while a read is under way waits for the next one, which all such callers share.
 *
 * `endOfTurn` (a read that goes to another process: PostgreSQL): a read is sent at the end of
 * the event loop's turn (setImmediate) rather than by its first caller, so every caller of that
 * turn shares it; once sent, later callers wait for the next. Sent by the first caller, a read
 * left the callers that came a moment later in the same turn to wait for a second round trip:
 * on PostgreSQL that was ~0.3 reads a token at 10 connections, ~10 % of umbo's CPU per token
 * (issue 12 bench, scripts/bench/oauth-cpu.mjs --pg). The wait is a part of the turn, not a
 * timer. A read this process answers itself (SQLite) gains nothing from waiting.
 */
export function sharedFreshRead(read: () => Promise<number>, opts: { endOfTurn?: boolean } = {}): () => Promise<number> {
  return opts.endOfTurn ? sharedByTurn(read) : sharedAtOnce(read);
}

function sharedAtOnce(read: () => Promise<number>): () => Promise<number> {
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

function sharedByTurn(read: () => Promise<number>): () => Promise<number> {
  /** the read under way (sent) */
  let running: Promise<number> | undefined;
  /** the next read, not sent yet: every caller until it is sent shares it */
  let next: Promise<number> | undefined;
  const ignore = () => undefined;
  const send = (): Promise<number> => {
    next = undefined; // from here on, a caller arrived too late for this read
    const p = read();
    running = p;
    const done = () => {
      if (running === p) running = undefined;
    };
    p.then(done, done);
    return p;
  };
  return () => {
    // after the read under way (one at a time), at the end of that turn
    next ??= (running ? running.then(ignore, ignore) : Promise.resolve()).then(() => new Promise<void>((r) => setImmediate(r))).then(send);
    return next;
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
