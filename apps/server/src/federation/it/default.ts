/**
 * The `default` IT interface (SPEC §3): everything of ecogloble.ts plus getUserInfoListByUcUids,
 * many users in one call (docs/it-interface.md), asked in batches of BATCH ids.
 */
import { z } from 'zod';
import { ItUnavailable } from './client.js';
import { itUser, type EcoglobleEndpoints, type ItTarget, type ItUser } from './ecogloble.js';

export const BATCH = 100;

const usersAnswer = z.object({ users: z.array(itUser).max(BATCH) });

export async function getUsersByIds(e: EcoglobleEndpoints, t: ItTarget, userIds: readonly string[]): Promise<ItUser[]> {
  if (t.backend.type !== 'default') throw new Error('getUserInfoListByUcUids is of the default backend type');
  const found: ItUser[] = [];
  for (let i = 0; i < userIds.length; i += BATCH) {
    const data = await e.call(t, t.backend.getUserInfoListByUcUids, { userIds: userIds.slice(i, i + BATCH) });
    const parsed = usersAnswer.safeParse(data);
    if (!parsed.success) throw new ItUnavailable('bad_answer');
    found.push(...parsed.data.users);
  }
  return found;
}
