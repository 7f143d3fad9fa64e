/** Periodic work of the device grant (composition/jobs.ts runs it). */
import type { Clock } from '../../platform/clock.js';
import type { Job } from '../../platform/jobs.js';
import { DEVICE_CODE_KEEP_EXPIRED_SEC } from '../defaults.js';
import type { DeviceCodeRepo } from '../store/device-codes.repo.js';

const MINUTE = 60 * 1000;

export function deviceJobs(deps: { deviceCodes: DeviceCodeRepo; clock: Clock }): Job[] {
  return [
    {
      name: 'sweep-oauth-device-codes',
      everyMs: 10 * MINUTE,
      run: async () => void (await deps.deviceCodes.deleteExpired(deps.clock.now() - DEVICE_CODE_KEEP_EXPIRED_SEC * 1000)),
    },
  ];
}
