/** Prometheus text at /metrics: requests and latency by route, database pool (issue 2). */
import type { FastifyInstance } from 'fastify';
import type { DbHandle } from './db.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

export function registerMetrics(app: FastifyInstance, dbh: DbHandle): void {
  const requests = new Map<string, number>();
  const latency = new Map<string, Series>();
  const started = new WeakMap<object, bigint>();

  app.addHook('onRequest', async (req) => {
    started.set(req, process.hrtime.bigint());
  });
  app.addHook('onResponse', async (req, reply) => {
    const t0 = started.get(req);
    const route = req.routeOptions.url ?? 'unmatched';
    const key = `${req.method} ${route} ${reply.statusCode}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    if (t0 === undefined) return;
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const lk = `${req.method} ${route}`;
    const s = latency.get(lk) ?? { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) };
    s.count += 1;
    s.sum += seconds;
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) s.buckets[i]! += 1;
    });
    latency.set(lk, s);
  });

  const label = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    const lines: string[] = [];
    lines.push('# HELP umbo_http_requests_total HTTP requests by method, route and status.');
    lines.push('# TYPE umbo_http_requests_total counter');
    for (const [key, n] of requests) {
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
