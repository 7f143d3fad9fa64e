/**
 * The data centre queue's timing (issue 14). Its settings (BIGDATA_*, README "Configuration")
 * are read with every other one by platform/config.ts and reach the queue as `config.bigdata`.
 * Retries: exponential backoff from RETRY_BASE_MS, doubled per failed attempt up to
 * RETRY_MAX_MS, with "equal jitter" (half fixed, half random) so that many instances and
 * accounts that failed together do not retry together (AWS Architecture Blog, "Exponential
 * Backoff and Jitter", 2015). An event is never dropped: it retries at most every RETRY_MAX_MS
 * until the data centre takes it.
 */
import type { BigdataOptions } from '../../platform/config.js';

/** The request's time limit: within half the lease, at most 10 s. */
export const timeoutOf = (o: Pick<BigdataOptions, 'leaseMs'>) => Math.min(10_000, Math.floor(o.leaseMs / 2));

/** The wait before attempt `attempts + 1`, after `attempts` failed ones (≥ 1). */
export function backoffMs(o: Pick<BigdataOptions, 'retryBaseMs' | 'retryMaxMs'>, attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(o.retryMaxMs, o.retryBaseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
