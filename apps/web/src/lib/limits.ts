/**
 * SPEC §9 constants the console needs at run time. They mirror LIMITS in
 * @umbo/contracts/rules, which cannot be imported here: rules.ts builds zod schemas at module
 * level, and that pulls ~90 KiB gzip of zod into the sign-in page (budget 150 KiB).
 * limits.test.ts fails when the two drift apart.
 */
export const LIMITS = {
  tokenLifetimeMs: 604_800_000,
  httpTimeoutMs: 6000,
  logoutReloadMs: 1500,
  chunkLoadTimeoutMs: 120_000,
  passwordMaxBytes: 4096,
} as const;
