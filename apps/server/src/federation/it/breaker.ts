/**
 * One circuit breaker per realm backend (issue 14, A-44's spirit): after FAILURES_TO_OPEN
 * consecutive failures (down, slow, garbage, 5xx) the realm's sign-ins fail fast with 1303
 * instead of each waiting 3 s on a dead backend; after COOL_DOWN_MS one trial call goes
 * through (half-open) and its outcome closes or reopens the breaker. Wrong credentials are
 * answers, not failures. State is per process on purpose: each instance protects its own
 * event loop and learns of the backend itself; the monitor page shows this instance's view.
 */
import type { Clock } from '../../platform/clock.js';

export const BREAKER_DEFAULTS = { failuresToOpen: 5, coolDownMs: 30_000 } as const;

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerView {
  realmId: string;
  type: string;
  state: BreakerState;
  consecutiveFailures: number;
  openedAt: number | null;
  lastFailure: string | null;
  lastFailureAt: number | null;
}

interface Entry extends BreakerView {
  /** a half-open trial is in flight: other calls still fail fast */
  trial: boolean;
}

export class BreakerOpen extends Error {}

export function createBreakers(clock: Clock, o: { failuresToOpen?: number; coolDownMs?: number } = {}) {
  const failuresToOpen = o.failuresToOpen ?? BREAKER_DEFAULTS.failuresToOpen;
  const coolDownMs = o.coolDownMs ?? BREAKER_DEFAULTS.coolDownMs;
  const entries = new Map<string, Entry>();

  function entry(realmId: string, type: string): Entry {
    let e = entries.get(realmId);
    if (!e) {
      e = { realmId, type, state: 'closed', consecutiveFailures: 0, openedAt: null, lastFailure: null, lastFailureAt: null, trial: false };
      entries.set(realmId, e);
    }
    e.type = type;
    return e;
  }

  /** Back to closed: fields set in place, no object built per successful call (issue 14 bench). */
  function closed(e: Entry): void {
    e.state = 'closed';
    e.consecutiveFailures = 0;
    e.openedAt = null;
    e.trial = false;
  }

  /** Runs `call` unless the breaker is open; records its outcome. `isFailure` tells failures from answers. */
  async function run<T>(realmId: string, type: string, call: () => Promise<T>, isFailure: (err: unknown) => string | null): Promise<T> {
    const e = entry(realmId, type);
    if (e.state === 'open' && e.openedAt !== null && clock.now() - e.openedAt >= coolDownMs) e.state = 'half_open';
    if (e.state === 'open' || (e.state === 'half_open' && e.trial)) throw new BreakerOpen('breaker open');
    const trial = e.state === 'half_open';
    if (trial) e.trial = true;
    try {
      const out = await call();
      closed(e);
      return out;
    } catch (err) {
      const reason = isFailure(err);
      if (reason === null) {
        // an answer (wrong credentials, user exists): the backend is alive
        closed(e);
        throw err;
      }
      e.trial = false;
      e.consecutiveFailures += 1;
      e.lastFailure = reason;
      e.lastFailureAt = clock.now();
      if (trial || e.consecutiveFailures >= failuresToOpen) {
        e.state = 'open';
        e.openedAt = clock.now();
      }
      throw err;
    }
  }

  /** What the monitor page shows: every realm backend this process has called. */
  function snapshot(): BreakerView[] {
    return [...entries.values()].map(({ trial: _trial, ...view }) => {
      const coolingDone = view.state === 'open' && view.openedAt !== null && clock.now() - view.openedAt >= coolDownMs;
      return { ...view, state: coolingDone ? 'half_open' : view.state };
    });
  }

  /** A realm whose backend settings changed starts afresh. */
  function forget(realmId: string): void {
    entries.delete(realmId);
  }

  return { run, snapshot, forget };
}

export type Breakers = ReturnType<typeof createBreakers>;
