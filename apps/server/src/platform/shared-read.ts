/**
 * One read shared by concurrent callers (the auth epoch of auth/auth-cache.repo.ts, which the
 * guard's, the clients' and the realm settings' caches check): under load, many requests pay
 * for one query.
 */

/**
 * `read()` shared by concurrent callers, each getting a value read after it called: a read is
 * sent once the callers of the moment have called (after the current run of code), and every
 * caller until it is sent shares it; a caller arriving while a read is under way waits for the
 * next one. One read at a time.
 *
 * `endOfTurn` (a read that goes to another process: PostgreSQL): the read waits for the end of
 * the event loop's turn (setImmediate), so every caller of that turn shares it. Sent by its
 * first caller, a read left the callers that came a moment later in the same turn to wait for a
 * second round trip: on PostgreSQL ~0.3 reads a token at 10 connections, 0.18 this way (issue
 * 12 bench, scripts/bench/oauth-cpu.mjs --pg). The wait is a part of the turn, not a timer. A
 * read this process answers itself (SQLite) gains nothing from waiting.
 */
export function sharedFreshRead(read: () => Promise<number>, opts: { endOfTurn?: boolean } = {}): () => Promise<number> {
  /** the read under way (sent) */
  let running: Promise<number> | undefined;
  /** the next read, not sent yet: every caller until it is sent shares it */
  let next: Promise<number> | undefined;
  const ignore = () => undefined;
  const turnEnd = opts.endOfTurn ? () => new Promise<void>((r) => setImmediate(r)) : undefined;
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
    next ??= (running ? running.then(ignore, ignore) : Promise.resolve()).then(turnEnd).then(send);
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
