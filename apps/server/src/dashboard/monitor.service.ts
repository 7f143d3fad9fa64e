/**
 * The dashboard's monitor (issue 11): this server process's own figures — request rate, error
 * rate and latency percentiles over the last minute, a five-minute series — and the health of
 * the database and Redis (a ping each, timed). Platform figures: only accounts of the master
 * realm holding dashboard.query there see them (a realm's administrator learns nothing of the
 * platform's load).
 */
import type { BackendBreaker, BigdataQueueStatus, MonitorResult } from '@umbo/contracts/dashboard';
import { MASTER_REALM, type PermService, type Principal } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import { assertThat } from '../platform/errors.js';
import type { RequestWindow } from '../platform/metrics.js';

export interface HealthProbes {
  dialect: string;
  database(): Promise<boolean>;
  /** absent without REDIS_URL */
  redis?: (() => Promise<boolean>) | undefined;
}

async function timed(probe: () => Promise<boolean>): Promise<{ ok: boolean; latencyMs: number | null }> {
  const t0 = process.hrtime.bigint();
  const ok = await probe().catch(() => false);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ok, latencyMs: ok ? Math.round(ms * 100) / 100 : null };
}

/** The data centre queue's figures read as empty when the database does not answer (the database probe says why). */
const EMPTY_QUEUE: BigdataQueueStatus = { pending: 0, failing: 0, oldestAgeSeconds: null, realms: [] };

export function createMonitorService(deps: {
  window: RequestWindow;
  probes: HealthProbes;
  /** issue 14: the data centre event queue (federation/bigdata/) */
  queue: () => Promise<BigdataQueueStatus>;
  /** issue 14: the IT-interface backends' circuit breakers (federation/it/breaker.ts) */
  backends?: () => BackendBreaker[];
  perm: Pick<PermService, 'allows'>;
  clock: Clock;
}) {
  async function monitor(principal: Principal): Promise<MonitorResult> {
    assertThat(deps.perm.allows(principal, 'dashboard', 'query', MASTER_REALM), 'FORBIDDEN', { service: 'users', resource: 'dashboard', perm: 'query' });
    // The window runs on the wall clock (requests happen in real time, whatever a test clock says).
    const snap = deps.window.snapshot(60);
    const [database, redis, queue] = await Promise.all([
      timed(deps.probes.database),
      deps.probes.redis ? timed(deps.probes.redis) : Promise.resolve(null),
      deps.queue().catch(() => EMPTY_QUEUE),
    ]);
    const mem = process.memoryUsage();
    const { series, ...window } = snap;
    return {
      at: deps.clock.now(),
      uptimeSeconds: Math.round(process.uptime()),
      window,
      series,
      database: { ...database, dialect: deps.probes.dialect },
      redis,
      memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed },
      queue,
      backends: deps.backends?.() ?? [],
    };
  }
  return { monitor };
}

export type MonitorService = ReturnType<typeof createMonitorService>;
