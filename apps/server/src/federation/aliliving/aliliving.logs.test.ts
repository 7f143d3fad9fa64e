/**
 * Secrets never reach a log line (issue 14, as A-33 for the other areas): with the log at its
 * most verbose, a realm whose Ali Living secret is wrong and one whose gateway is down are
 * signed in to; the failures are logged, and neither the configured secret nor the right one
 * appears in any line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, DB_TARGETS, type Harness } from '../../test/harness.js';
import { createPerson, createRealm, signIn } from '../../test/kit.js';
import { startStandIn } from './living-standin.testkit.js';

const RIGHT = 'ali-Log-Secret-5521';
const WRONG = 'ali-Wrong-Secret-5522';
const group = { type: 'aliliving', enable: true, appCloudKey: 'log-key', projectRes: 'p-log', appKey: 'living-log' } as const;

const standIn = await startStandIn({ appKey: group.appCloudKey, appSecret: RIGHT, projectRes: group.projectRes, openIdAppKey: group.appKey });
afterAll(() => standIn.stop());

for (const target of DB_TARGETS) {
  describe(`issue 14: Ali Living secrets never reach the log [${target.dialect}]`, () => {
    const lines: string[] = [];
    let h: Harness & { dispose(): Promise<void> };
    beforeAll(async () => {
      h = await createHarness(
        target,
        { LOG_LEVEL: 'trace', ALILIVING_API_URL: standIn.url, ALILIVING_ALLOW_PRIVATE_NETWORK: 'true' },
        { logDestination: { write: (s: string) => void lines.push(s) } },
      );
    });
    afterAll(async () => h?.dispose());

    const realmWith = (secret: string) =>
      createRealm(h, {
        backend_type: 'aliliving',
        backend: { ...group, appCloudSecret: h.ctx.secrets.encrypt(secret) },
        backend_realm_id: 'tenant-7',
        backend_regist_url: 'https://it.example.cn/register',
      });

    it('a refused signature and an unreachable gateway are logged without the secret', async () => {
      const wrongRealm = await realmWith(WRONG);
      const a = await createPerson(h, { realmId: wrongRealm });
      expect((await signIn(h, a)).status).toBe(200);
      await h.ctx.services.aliLiving.settled();

      const rightRealm = await realmWith(RIGHT);
      const b = await createPerson(h, { realmId: rightRealm });
      await standIn.stop();
      try {
        expect((await signIn(h, b)).status).toBe(200);
        await h.ctx.services.aliLiving.settled();
      } finally {
        await standIn.restart();
      }

      const failures = lines.filter((l) => l.includes('Ali Living link failed'));
      expect(failures.some((l) => l.includes('gateway answered HTTP 400'))).toBe(true);
      expect(failures.some((l) => l.includes('unreachable'))).toBe(true);
      for (const l of lines) {
        expect(l).not.toContain(WRONG);
        expect(l).not.toContain(RIGHT);
      }
    });
  });
}
