/**
 * Security defaults of the upstream OpenID sign-in (issue 14), in one place.
 */
export const UPSTREAM_DEFAULTS = {
  /** the sign-in at the upstream, from start to callback (the transaction cookie's life) */
  transactionTtlMs: 10 * 60_000,
  /** the hand-over from the callback to the console's sign-in page: single use, like an ftoken */
  handoverTtlMs: 2 * 60_000,
  /** each call to the upstream: the 3 s, under SPEC's 6 s client timeout */
  timeoutMs: 3_000,
  /** discovery documents and JWKS are small */
  maxResponseBytes: 256 * 1024,
  /** a discovered configuration is reused this long (per realm and settings) */
  discoveryCacheMs: 5 * 60_000,
  /** the transaction cookie */
  cookieName: 'umbo_upstream',
} as const;
