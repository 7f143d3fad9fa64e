/**
 * Paths of the public sign-in flows the console calls. They mirror `flowPaths` in
 * @umbo/contracts/auth-flows, which cannot be imported here: that module builds zod schemas at
 * load time (~90 KiB gzip on the sign-in page). flow-paths.test.ts keeps the two equal.
 */
export const flowPaths = {
  options: '/api/users/auth/options',
  captcha: '/api/users/auth/captcha',
} as const;
