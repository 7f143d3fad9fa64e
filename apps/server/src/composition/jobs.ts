/**
 * Step 4 of the composition root: the periodic jobs of this process. Each area exports its
 * own sweeps (`<area>.jobs.ts`); the runner (platform/jobs.ts) takes one lease per job, so
 * among several processes one runs each.
 */
import { accountJobs } from '../accounts/accounts.jobs.js';
import { auditJobs } from '../audit/audit.jobs.js';
import { sessionJobs } from '../auth/sessions.jobs.js';
import { throttleJobs } from '../auth/throttle/throttle.jobs.js';
import { codeJobs } from '../codes/codes.jobs.js';
import { outboxJobs } from '../notify/outbox.jobs.js';
import { deviceJobs } from '../oauth/device/device.jobs.js';
import { tokenJobs } from '../oauth/store/tokens.jobs.js';
import type { Job } from '../platform/jobs.js';
import { plannerJobs } from '../platform/planner.jobs.js';
import { expiryJobs } from '../pki/expiry.jobs.js';
import { aliLivingJobs } from '../federation/aliliving/aliliving.jobs.js';
import { pkiJobs } from '../pki/pki.jobs.js';
import type { AppContext } from './context.js';

export function coreJobs(ctx: AppContext): Job[] {
  const { repos, clock } = ctx;
  return [
    ...sessionJobs({ sessions: repos.sessions, clock }),
    ...throttleJobs({ throttle: repos.throttle, clock }),
    ...codeJobs({ codes: repos.codes, mailLinks: repos.mailLinks, clock }),
    ...outboxJobs({ outbox: repos.outbox, clock }),
    ...deviceJobs({ deviceCodes: repos.oauthDeviceCodes, clock }),
    ...tokenJobs({
      codes: repos.oauthCodes,
      families: repos.oauthFamilies,
      refreshTokens: repos.oauthRefreshTokens,
      revokedTokens: repos.oauthRevokedTokens,
      clock,
    }),
    ...auditJobs({ audit: repos.audit, clock, retentionDays: ctx.config.auditRetentionDays }),
    ...pkiJobs({ crl: ctx.services.pkiCrl }),
    ...expiryJobs({ notices: ctx.services.pkiExpiry }),
    ...aliLivingJobs({ aliLiving: ctx.services.aliLiving }),
    ...accountJobs({ accounts: repos.accounts }),
    ...plannerJobs(ctx.dbh),
  ];
}
