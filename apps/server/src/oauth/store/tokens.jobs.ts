/**
 * Periodic work of the token store (composition/jobs.ts runs it; one process per job):
 * - authCodeMulitUse answers are erased once their reuse window has passed (SPEC §9, issue 12:
 *   "kept encrypted ... for the window only, then erased");
 * - codes a day past expiry (kept that long so a late reuse is still recognised and revokes);
 * - families a day past their absolute end (their refresh tokens go with them, by cascade),
 *   expired refresh tokens, and revoked jtis whose tokens have expired anyway.
 */
import type { Clock } from '../../platform/clock.js';
import type { Job } from '../../platform/jobs.js';
import { CODE_REUSE_WINDOW_SEC } from '../defaults.js';
import type { OAuthCodeRepo } from './codes.repo.js';
import type { FamilyRepo } from './families.repo.js';
import type { RefreshTokenRepo } from './refresh-tokens.repo.js';
import type { RevokedTokenRepo } from './revoked-tokens.repo.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function tokenJobs(deps: {
  codes: Pick<OAuthCodeRepo, 'clearSealed' | 'deleteExpired'>;
  families: Pick<FamilyRepo, 'deleteExpired'>;
  refreshTokens: Pick<RefreshTokenRepo, 'deleteExpired'>;
  revokedTokens: Pick<RevokedTokenRepo, 'deleteExpired'>;
  clock: Clock;
}): Job[] {
  const { clock } = deps;
  return [
    { name: 'oauth-erase-sealed-answers', everyMs: MINUTE, run: async () => void (await deps.codes.clearSealed(clock.now() - CODE_REUSE_WINDOW_SEC * 1000)) },
    { name: 'oauth-sweep-codes', everyMs: HOUR, run: async () => void (await deps.codes.deleteExpired(clock.now() - DAY)) },
    {
      name: 'oauth-sweep-tokens',
      everyMs: HOUR,
      run: async () => {
        const now = clock.now();
        await deps.refreshTokens.deleteExpired(now - DAY);
        await deps.families.deleteExpired(now - DAY);
        await deps.revokedTokens.deleteExpired(now);
      },
    },
  ];
}
