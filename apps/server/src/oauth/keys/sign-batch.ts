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
 * umbo's CPU per client_credentials token fell from ~150–190 µs to ~80–100 µs
 * (scripts/bench/oauth-cpu.mjs, builds alternating).
 *
 * What it costs a request: the rest of the current turn, never a timer. A request alone is
 * signed in the same turn it asked in. Each job fails on its own (one bad key rejects only its
 * own promise).
 */
import { signJwt, type SigningKey } from '../jwt.js';

interface Job {
  key: SigningKey;
  header: { typ: string };
  payload: object;
  resolve(jwt: string): void;
  reject(err: unknown): void;
}

export type BatchSign = (key: SigningKey, header: { typ: string }, payload: object) => Promise<string>;

/** `signNow`: the signature itself (tests count the calls); default oauth/jwt.ts signJwt. */
export function createSignBatch(signNow: typeof signJwt = signJwt): BatchSign {
  let queue: Job[] = [];

  function drain(): void {
    const jobs = queue;
    queue = [];
    for (const j of jobs) {
      let jwt: string;
      try {
        jwt = signNow(j.key, j.header, j.payload);
      } catch (err) {
        j.reject(err);
        continue;
      }
      j.resolve(jwt);
    }
  }

  return (key, header, payload) =>
    new Promise<string>((resolve, reject) => {
      if (queue.push({ key, header, payload, resolve, reject }) === 1) setImmediate(drain);
    });
}
