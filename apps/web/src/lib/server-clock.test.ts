import { afterEach, describe, expect, it } from 'vitest';
import { msUntilServerTime, noteServerDate, resetServerClock, serverNow } from './server-clock';

// 2026-12-07 12:00:00 UTC, on the server's clock
const SERVER = Date.UTC(2026, 11, 7, 12, 0, 0);
const header = (ms: number) => new Date(ms).toUTCString();

describe("the server's clock seen from the browser", () => {
  afterEach(resetServerClock);

  it('keeps the browser clock while the two agree within 2 s (milliseconds, not the header’s seconds)', () => {
    noteServerDate(header(SERVER), SERVER + 1_234);
    expect(serverNow(SERVER + 1_234)).toBe(SERVER + 1_234);
    expect(msUntilServerTime(SERVER + 120_000, SERVER + 1_234)).toBe(118_766);
  });

  it('a browser 5 minutes fast still sees a 2-minute captcha as 2 minutes away', () => {
    const fast = SERVER + 5 * 60_000;
    noteServerDate(header(SERVER), fast);
    const left = msUntilServerTime(SERVER + 120_000, fast);
    // within the header's second
    expect(left).toBeGreaterThan(118_000);
    expect(left).toBeLessThanOrEqual(120_000);
  });

  it('a browser 10 minutes slow counts a 60 s resend wait as 60 s', () => {
    const slow = SERVER - 10 * 60_000;
    noteServerDate(header(SERVER), slow);
    const left = msUntilServerTime(SERVER + 60_000, slow);
    expect(left).toBeGreaterThan(58_000);
    expect(left).toBeLessThanOrEqual(60_000);
  });

  it('ignores a missing or unreadable header, and a time already past is 0 away', () => {
    noteServerDate(null, SERVER + 600_000);
    noteServerDate('not a date', SERVER + 600_000);
    expect(serverNow(SERVER)).toBe(SERVER);
    expect(msUntilServerTime(SERVER - 1, SERVER)).toBe(0);
  });

  it('learns again from each answer: a clock set right is trusted again', () => {
    noteServerDate(header(SERVER), SERVER + 300_000);
    expect(Math.abs(serverNow(SERVER + 300_000) - SERVER)).toBeLessThan(1_000);
    noteServerDate(header(SERVER + 400_000), SERVER + 400_300);
    expect(serverNow(SERVER + 400_300)).toBe(SERVER + 400_300);
  });
});
