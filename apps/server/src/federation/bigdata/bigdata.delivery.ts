/**
 * Delivery to the data centre (issue 14): a loop in every server process takes the due heads
 * of the accounts' lines (bigdata.repo.ts), claims each with a lease, POSTs its JSON to the
 * realm's data centre through the guarded outbound client (A-37) and deletes it on a 2xx. Any
 * other outcome puts it back with exponential backoff and jitter (bigdata.config.ts). Nothing
 * is dropped; a row whose sender died is due again when its lease ends (A-45); a receiver
 * may see an event twice (a 2xx lost on the way back, a kill between answer and delete) and
 * dedupes on its `eventId`, also sent as the Idempotency-Key header.
 *
 * The job runner (platform/jobs.ts) is not used: it lets one process run a job per period
 * and looks every 30 s; events should leave within a second, from any instance.
 */
import type { BigdataQueueStatus } from '@umbo/contracts/dashboard';
import { outbound, OutboundRefused, type OutboundRequest, type OutboundResponse } from '../../notify/outbound.js';
import type { Clock } from '../../platform/clock.js';
import type { BigdataOptions } from '../../platform/config.js';
import { newId } from '../../platform/crypto.js';
import type { Logger } from '../../platform/logger.js';
import { readRealmSettings } from '../../realms/realm-settings.js';
import type { RealmRepo } from '../../realms/realms.repo.js';
import { backoffMs, timeoutOf } from './bigdata.config.js';
import type { BigdataEventRow, BigdataRepo } from './bigdata.repo.js';

export interface BigdataDeliveryDeps {
  repo: BigdataRepo;
  realms: Pick<RealmRepo, 'findRealmById'>;
  clock: Clock;
  log: Logger;
  options: BigdataOptions;
  /** the outbound client (tests count what leaves) */
  send?: (req: OutboundRequest) => Promise<OutboundResponse>;
}

/** Where a realm's events go, or why they cannot go. */
type Destination = { url: string } | { error: string };

/** The reason kept for the monitor: a status or an error class, never an answer's body. */
export function reasonOf(err: unknown): string {
  if (err instanceof OutboundRefused) return `refused: ${err.message}`;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string') return e.code;
  if (e?.message === 'timeout') return 'timeout';
  if (e?.message === 'response too large') return 'response too large';
  return 'network error';
}

export function createBigdataDelivery(deps: BigdataDeliveryDeps) {
  const { repo, clock, options } = deps;
  const send = deps.send ?? ((req: OutboundRequest) => outbound(req));
  const log = deps.log.child({ name: 'bigdata' });
  // this process's name on the rows it claims
  const holder = newId();

  async function destinationOf(realmId: string): Promise<Destination> {
    const realm = await deps.realms.findRealmById(realmId);
    if (!realm) return { error: 'realm not found' };
    const st = readRealmSettings(realm.settings);
    const b = st.backend;
    // The realm stopped reporting: its queued events wait (never dropped) until it reports again or is deleted.
    if (st.backend_type !== 'bigdata' || b?.type !== 'bigdata') return { error: 'realm does not report to a data centre' };
    return { url: `${b.ishttp ? 'http' : 'https'}://${b.host}:${b.port}${b.path}` };
  }

  /** One claimed row: sent, then acknowledged or put back. True when the data centre took it. */
  async function deliver(row: BigdataEventRow, destination: Destination): Promise<boolean> {
    let error: string;
    if ('error' in destination) {
      error = destination.error;
    } else {
      try {
        const res = await send({
          method: 'POST',
          url: destination.url,
          headers: { 'content-type': 'application/json', 'idempotency-key': row.event_id },
          body: row.payload,
          allowPrivate: options.allowPrivate,
          timeoutMs: timeoutOf(options),
          maxBytes: 16 * 1024,
        });
        if (res.status >= 200 && res.status < 300) {
          await repo.acknowledge(row.seq);
          return true;
        }
        error = `HTTP ${res.status}`;
      } catch (err) {
        error = reasonOf(err);
      }
    }
    const attempts = row.attempts + 1;
    const now = clock.now();
    await repo.release(row.seq, holder, now + backoffMs(options, attempts), error, now);
    log.warn({ realmId: row.realm_id, eventId: row.event_id, attempts, error }, 'data centre delivery failed; will retry');
    return false;
  }

  /**
   * One look at the queue: every due head is claimed and sent, a few at once (at most one
   * per account, so an account's order holds). Answers how many the data centre took.
   */
  async function tick(): Promise<number> {
    const now = clock.now();
    const heads = await repo.dueHeads(now, options.batch);
    const destinations = new Map<string, Promise<Destination>>();
    let delivered = 0;
    let next = 0;
    const lane = async () => {
      while (next < heads.length) {
        const row = heads[next++]!;
        if (!(await repo.claim(row.seq, holder, now, now + options.leaseMs))) continue;
        let dest = destinations.get(row.realm_id);
        if (!dest) destinations.set(row.realm_id, (dest = destinationOf(row.realm_id)));
        if (await deliver(row, await dest)) delivered++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, heads.length) }, lane));
    return delivered;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function loop(): Promise<void> {
    let delivered = 0;
    try {
      delivered = await tick();
    } catch (err) {
      // the database away for a moment: the rows wait, the loop goes on
      log.warn({ err }, 'data centre queue: look failed');
    }
    if (stopped) return;
    // More may be waiting behind what just went: look again at once, else after the poll interval.
    timer = setTimeout(() => void (running = loop()), delivered > 0 ? 0 : options.pollMs);
  }

  return {
    tick,
    start(): void {
      if (!stopped) return;
      stopped = false;
      running = loop();
    },
    /** Stops looking; a send under way finishes (its row is acknowledged or put back). */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    /** The monitor's entry: every instance reads the same figures from the database. */
    async status(): Promise<BigdataQueueStatus> {
      const now = clock.now();
      const age = (at: number) => Math.max(0, Math.round((now - at) / 1000));
      const realms = (await repo.figures()).map((f) => ({
        realmId: f.realmId,
        pending: f.pending,
        failing: f.failing,
        oldestAgeSeconds: age(f.oldestAt),
        lastError: f.lastError,
        lastErrorAt: f.lastErrorAt,
      }));
      const oldest = realms.reduce<number | null>((m, r) => (m === null || r.oldestAgeSeconds > m ? r.oldestAgeSeconds : m), null);
      return {
        pending: realms.reduce((n, r) => n + r.pending, 0),
        failing: realms.reduce((n, r) => n + r.failing, 0),
        oldestAgeSeconds: oldest,
        realms,
      };
    },
  };
}

export type BigdataDelivery = ReturnType<typeof createBigdataDelivery>;
