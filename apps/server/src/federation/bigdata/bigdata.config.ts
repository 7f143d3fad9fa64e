/**
 * The data centre queue's settings (issue 14; README "Configuration"), read from the
 * environment once at start, each refused at start with its variable named when invalid.
 * Retries: exponential backoff from RETRY_BASE_MS, doubled per failed attempt up to
 * RETRY_MAX_MS, with "equal jitter" (half fixed, half random) so that many instances and
 * accounts that failed together do not retry together (AWS Architecture Blog, "Exponential
 * Backoff and Jitter", 2015). An event is never dropped: it retries at most every RETRY_MAX_MS
 * until the data centre takes it.
 */
import { ConfigError, int } from '../../platform/config.js';

export interface BigdataOptions {
  /** BIGDATA_ALLOW_PRIVATE_NETWORK: a data centre on a private or loopback address */
  allowPrivate: boolean;
  /** BIGDATA_POLL_MS: how often an idle queue is looked at */
  pollMs: number;
  /** BIGDATA_LEASE_MS: how long a claimed row is one process's; a killed process's row is due again after it */
  leaseMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** rows handed out per look, and sent at once (one per account at most) */
  batch: number;
  concurrency: number;
}

export const BIGDATA_DEFAULTS: BigdataOptions = {
  allowPrivate: false,
  pollMs: 1000,
  leaseMs: 30_000,
  retryBaseMs: 1000,
  retryMaxMs: 5 * 60_000,
  batch: 100,
  concurrency: 8,
};

type Env = Record<string, string | undefined>;

export function loadBigdataOptions(env: Env = process.env): BigdataOptions {
  const flag = env.BIGDATA_ALLOW_PRIVATE_NETWORK;
  if (flag !== undefined && flag !== '' && flag !== 'true' && flag !== 'false') {
    throw new ConfigError('BIGDATA_ALLOW_PRIVATE_NETWORK', `must be true or false, got "${flag}"`);
  }
  return {
    ...BIGDATA_DEFAULTS,
    allowPrivate: flag === 'true',
    pollMs: int(env, 'BIGDATA_POLL_MS', BIGDATA_DEFAULTS.pollMs, 50, 60_000),
    // at least twice the request's own time limit (timeoutOf): a row is never re-sent while its first send may still run
    leaseMs: int(env, 'BIGDATA_LEASE_MS', BIGDATA_DEFAULTS.leaseMs, 1000, 3_600_000),
  };
}

/** The request's time limit: within half the lease, at most 10 s. */
export const timeoutOf = (o: Pick<BigdataOptions, 'leaseMs'>) => Math.min(10_000, Math.floor(o.leaseMs / 2));

/** The wait before attempt `attempts + 1`, after `attempts` failed ones (≥ 1). */
export function backoffMs(o: Pick<BigdataOptions, 'retryBaseMs' | 'retryMaxMs'>, attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(o.retryMaxMs, o.retryBaseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
