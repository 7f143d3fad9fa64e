/**
 * Signatures made together, once per event-loop turn (issue 12 bench).
 *
 * Under load, one turn reads several token requests. Signing each in the middle of its own
 * request interleaves the signature (P-256 walks ~150 KB of OpenSSL's precomputed tables) with
 * the HTTP, JSON and V8 work of the next request, and each evicts the other from the core's
 * cache: in the server, an ES256 signature cost ~50 µs against ~27 µs in a loop on this machine
 * kind. Queued and made back to back in the turn's check phase (setImmediate, which runs right
 * after the poll phase that read the requests), every signature but the first finds the
 * tables warm, and the rest of each request's work runs in runs of its own kind as well:
 * umbo's CPU per client_credentials token on SQLite fell from ~150–190 µs to ~85–105 µs
 * (scripts/bench/oauth-cpu.mjs, builds alternating; PostgreSQL unchanged: there each token first
 * waits for the shared auth-epoch read, and fewer requests share a turn).
 *
 * What it costs a request: the rest of the current turn, never a timer. A request alone is
 * signed in the same turn it asked in. No answer leaves before its batch ends (the promises
 * settle after the check-phase callback returns), so a batch stops after BATCH_BUDGET_MS of
 * signing and leaves the rest to the next turn's check phase: ~35 ES256 signatures, one or two
 * RS256 ones. Each job fails on its own (one bad key rejects only its own promise).
 */
import { signJwt, type SigningKey } from '../jwt.js';

interface Job {
  key: SigningKey;
  header: { typ: string };
  payload: object;
  resolve(jwt: string): void;
  reject(err: unknown): void;
}

/** How long one batch may sign before the answers it holds leave. */
export const BATCH_BUDGET_MS = 1;

export type BatchSign = (key: SigningKey, header: { typ: string }, payload: object) => Promise<string>;

/** `signNow`: the signature itself (tests count the calls); default oauth/jwt.ts signJwt. */
export function createSignBatch(signNow: typeof signJwt = signJwt): BatchSign {
  let queue: Job[] = [];

  function drain(): void {
    const jobs = queue;
    queue = [];
    const until = performance.now() + BATCH_BUDGET_MS;
    for (let i = 0; i < jobs.length; i++) {
      if (i > 0 && performance.now() > until) {
        // the rest is the next batch (nothing was added meanwhile: signing is synchronous)
        queue = jobs.slice(i);
        setImmediate(drain);
        return;
      }
      const j = jobs[i]!;
      try {
        j.resolve(signNow(j.key, j.header, j.payload));
      } catch (err) {
        j.reject(err);
      }
    }
  }

  return (key, header, payload) =>
    new Promise<string>((resolve, reject) => {
      if (queue.push({ key, header, payload, resolve, reject }) === 1) setImmediate(drain);
    });
}
