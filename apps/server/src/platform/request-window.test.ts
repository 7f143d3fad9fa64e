/** The monitor's rolling window (platform/metrics.ts, issue 11): rates, percentiles, expiry. */
import { describe, expect, it } from 'vitest';
import { createRequestWindow } from './metrics.js';

describe('request window', () => {
  it('counts the last minute: rate, server and client error shares, latency percentiles', () => {
    const w = createRequestWindow();
    const t0 = 1_800_000_000_000;
    // 100 requests over 10 s: latencies 1..100 ms; 5 answered 500, 10 answered 404
    for (let i = 1; i <= 100; i++) w.observe(i <= 5 ? 500 : i <= 15 ? 404 : 200, i, t0 + (i % 10) * 1000);
    const s = w.snapshot(60, t0 + 10_000);
    expect(s.requests).toBe(100);
    expect(s.perSecond).toBeCloseTo(100 / 60, 2);
    expect(s.errorRate).toBe(0.05);
    expect(s.clientErrorRate).toBe(0.1);
    expect([s.p50, s.p95, s.p99]).toEqual([50, 95, 99]);
    expect(s.series).toHaveLength(30);
    expect(s.series.reduce((n, p) => n + p.requests, 0)).toBe(100);
  });

  it('forgets what is older than the asked span, and slots reused after five minutes start empty', () => {
    const w = createRequestWindow();
    const t0 = 1_800_000_000_000;
    w.observe(200, 7, t0);
    expect(w.snapshot(60, t0 + 61_000).requests).toBe(0);
    expect(w.snapshot(120, t0 + 61_000).requests).toBe(1);
    // the same slot, 300 s later: the old second's count does not leak into the new one
    w.observe(200, 3, t0 + 300_000);
    const s = w.snapshot(60, t0 + 300_000);
    expect(s.requests).toBe(1);
    expect(s.p50).toBe(3);
    expect(w.snapshot(60, t0 + 400_000)).toMatchObject({ requests: 0, p50: null, errorRate: 0 });
  });
});
