/**
 * Prometheus text at /metrics: requests and latency by route, database pool (issue 2); and a
 * rolling window of the last minutes (issue 11: the dashboard's monitor page reads it).
 */
import type { FastifyInstance } from 'fastify';
import type { DbHandle } from './db.js';

/** Seconds the window keeps; the monitor shows the last minute and a five-minute series. */
const WINDOW_SECONDS = 300;
/** Latency samples kept per second: beyond it, a uniform sample of that second's requests. */
const SAMPLES_PER_SECOND = 1000;

interface Slot {
  second: number;
  count: number;
  serverErrors: number;
  clientErrors: number;
  samples: number[];
}

export interface WindowSnapshot {
  /** over the last `seconds` */
  seconds: number;
  requests: number;
  perSecond: number;
  /** share of 5xx answers, 0..1 */
  errorRate: number;
  /** share of 4xx answers, 0..1 */
  clientErrorRate: number;
  /** milliseconds; null without requests */
  p50: number | null;
  p95: number | null;
  p99: number | null;
  /** the whole window in buckets of `bucketSeconds`, oldest first: requests, 5xx and p95 (ms) of each */
  series: { at: number; requests: number; errors: number; p95: number | null }[];
}

export interface RequestWindow {
  observe(status: number, ms: number, now?: number): void;
  snapshot(lastSeconds?: number, now?: number, bucketSeconds?: number): WindowSnapshot;
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i]! * 100) / 100;
}

/**
 * The process's own requests per second over the last five minutes, in one-second slots: a
 * fixed amount of memory whatever the load. Each instance reports itself (no shared state).
 */
export function createRequestWindow(): RequestWindow {
  const slots: Slot[] = Array.from({ length: WINDOW_SECONDS }, () => ({ second: -1, count: 0, serverErrors: 0, clientErrors: 0, samples: [] }));
  const slotAt = (second: number): Slot => {
    const slot = slots[second % WINDOW_SECONDS]!;
    if (slot.second !== second) Object.assign(slot, { second, count: 0, serverErrors: 0, clientErrors: 0, samples: [] });
    return slot;
  };
  return {
    observe(status, ms, now = Date.now()) {
      const slot = slotAt(Math.floor(now / 1000));
      slot.count += 1;
      if (status >= 500) slot.serverErrors += 1;
      else if (status >= 400) slot.clientErrors += 1;
      if (slot.samples.length < SAMPLES_PER_SECOND) slot.samples.push(ms);
      else {
        // reservoir sampling: every request of the second has the same chance to be kept
        const j = Math.floor(Math.random() * slot.count);
        if (j < SAMPLES_PER_SECOND) slot.samples[j] = ms;
      }
    },
    snapshot(lastSeconds = 60, now = Date.now(), bucketSeconds = 10) {
      const current = Math.floor(now / 1000);
      const live = (s: Slot) => s.second > current - WINDOW_SECONDS && s.second <= current;
      const recent = slots.filter((s) => live(s) && s.second > current - lastSeconds);
      const requests = recent.reduce((n, s) => n + s.count, 0);
      const serverErrors = recent.reduce((n, s) => n + s.serverErrors, 0);
      const clientErrors = recent.reduce((n, s) => n + s.clientErrors, 0);
      const sorted = recent.flatMap((s) => s.samples).sort((a, b) => a - b);
      const series = [];
      for (let start = current - WINDOW_SECONDS + 1; start <= current; start += bucketSeconds) {
        const bucket = slots.filter((s) => live(s) && s.second >= start && s.second < start + bucketSeconds);
        series.push({
          at: start * 1000,
          requests: bucket.reduce((n, s) => n + s.count, 0),
          errors: bucket.reduce((n, s) => n + s.serverErrors, 0),
          p95: percentile(
            bucket.flatMap((s) => s.samples).sort((a, b) => a - b),
            95,
          ),
        });
      }
      return {
        seconds: lastSeconds,
        requests,
        perSecond: Math.round((requests / lastSeconds) * 100) / 100,
        errorRate: requests ? serverErrors / requests : 0,
        clientErrorRate: requests ? clientErrors / requests : 0,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        series,
      };
    },
  };
}

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

/** One route and method: its latency series, and its request counts by status. */
interface RouteStats {
  series: Series;
  byStatus: Map<number, { n: number }>;
}

export function registerMetrics(app: FastifyInstance, dbh: DbHandle, window?: RequestWindow): void {
  // The exposition's maps, in first-seen order: "method route status" → count, "method route" → latency.
  const requests = new Map<string, { n: number }>();
  const latency = new Map<string, Series>();
  // The same entries reached by route, then method, then status: no key string built and hashed
  // per request (issue 12 bench); route and method strings are the same objects on every request.
  const byRoute = new Map<string, Map<string, RouteStats>>();
  function statsOf(method: string, route: string): RouteStats {
    let methods = byRoute.get(route);
    if (!methods) byRoute.set(route, (methods = new Map()));
    let st = methods.get(method);
    if (!st) {
      const lk = `${method} ${route}`;
      let series = latency.get(lk);
      if (!series) latency.set(lk, (series = { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) }));
      methods.set(method, (st = { series, byStatus: new Map() }));
    }
    return st;
  }
  // Callback hooks, not async ones: no promise per request for bookkeeping (issue 11 bench).
  // The latency is Fastify's own clock for the reply (started when the request was routed).
  app.addHook('onResponse', (req, reply, done) => {
    const seconds = reply.elapsedTime / 1000;
    const route = req.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    const st = statsOf(req.method, route);
    let counter = st.byStatus.get(status);
    if (!counter) {
      const key = `${req.method} ${route} ${status}`;
      counter = requests.get(key);
      if (!counter) requests.set(key, (counter = { n: 0 }));
      st.byStatus.set(status, counter);
    }
    counter.n += 1;
    window?.observe(status, seconds * 1000);
    const s = st.series;
    s.count += 1;
    s.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) s.buckets[i]! += 1;
    done();
  });

  const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    const lines: string[] = [];
    lines.push('# HELP umbo_http_requests_total HTTP requests by method, route and status.');
    lines.push('# TYPE umbo_http_requests_total counter');
    for (const [key, { n }] of requests) {
      const [method, route, status] = key.split(' ');
      lines.push(`umbo_http_requests_total{method="${method}",route="${label(route!)}",status="${status}"} ${n}`);
    }
    lines.push('# HELP umbo_http_request_duration_seconds Request latency by method and route.');
    lines.push('# TYPE umbo_http_request_duration_seconds histogram');
    for (const [key, s] of latency) {
      const [method, route] = key.split(' ');
      const l = `method="${method}",route="${label(route!)}"`;
      BUCKETS.forEach((b, i) => lines.push(`umbo_http_request_duration_seconds_bucket{${l},le="${b}"} ${s.buckets[i]}`));
      lines.push(`umbo_http_request_duration_seconds_bucket{${l},le="+Inf"} ${s.count}`);
      lines.push(`umbo_http_request_duration_seconds_sum{${l}} ${s.sum}`);
      lines.push(`umbo_http_request_duration_seconds_count{${l}} ${s.count}`);
    }
    const pool = dbh.poolStats();
    lines.push('# HELP umbo_db_pool_connections Database pool connections by state.');
    lines.push('# TYPE umbo_db_pool_connections gauge');
    lines.push(`umbo_db_pool_connections{dialect="${dbh.dialect}",state="total"} ${pool.total}`);
    lines.push(`umbo_db_pool_connections{dialect="${dbh.dialect}",state="idle"} ${pool.idle}`);
    lines.push(`umbo_db_pool_connections{dialect="${dbh.dialect}",state="waiting"} ${pool.waiting}`);
    reply.type('text/plain; version=0.0.4').send(lines.join('\n') + '\n');
  });
}
