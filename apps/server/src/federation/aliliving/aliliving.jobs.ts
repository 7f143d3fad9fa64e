/** The Ali Living retry (issue 14): unlinked accounts whose next try is due, once a minute. */
import type { Job } from '../../platform/jobs.js';
import type { AliLivingService } from './aliliving.service.js';

export function aliLivingJobs(deps: { aliLiving: Pick<AliLivingService, 'retryDue'> }): Job[] {
  return [
    {
      name: 'aliliving-retry',
      everyMs: 60_000,
      run: async () => {
        await deps.aliLiving.retryDue();
      },
    },
  ];
}
