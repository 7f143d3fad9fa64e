/**
 * The server's clock as this browser can tell it, for deadlines the server states as times of
 * its own (a captcha's expiresAt, a code's resendAt). A computer whose clock runs minutes fast
 * read every captcha as expired on arrival: the form fetched a new image without end and
 * answered "expired" to every try, and its resend button came back after 1 s instead of 60.
 *
 * Every API answer carries the server's `Date` header (HTTP, whole seconds). While the two
 * clocks agree within OFF_BY_MS the browser's own (milliseconds) is used; beyond that the
 * difference the header shows is added. Deadlines are then counted on the monotonic clock
 * (`performance.now`), which a change of the wall clock (a sleeping laptop, a time sync) does
 * not move.
 */

/** Clocks this close count as the same: the header's seconds cannot tell finer anyway. */
const OFF_BY_MS = 2_000;

let offsetMs = 0;

/** Notes the `Date` header of an answer the server has just sent. `now`: this browser's clock then. */
export function noteServerDate(header: string | null, now = Date.now()): void {
  if (!header) return;
  const server = Date.parse(header);
  if (Number.isNaN(server)) return;
  // The header is rounded down to its second: the server's time was between it and a second later.
  const off = server + 500 - now;
  offsetMs = Math.abs(off) > OFF_BY_MS ? off : 0;
}

/** The server's time now, in ms since the epoch, as far as this browser knows it. */
export function serverNow(now = Date.now()): number {
  return now + offsetMs;
}

/** How long until the server's time `at` (ms, ≥ 0), on this browser's clocks. */
export function msUntilServerTime(at: number, now = Date.now()): number {
  return Math.max(at - serverNow(now), 0);
}

/** Forgets what was learnt (tests). */
export function resetServerClock(): void {
  offsetMs = 0;
}
