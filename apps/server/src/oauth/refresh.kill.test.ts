/**
 * A-45 for refresh tokens (issue 12): a server killed with SIGKILL in the middle of a loop of
 * refreshes leaves every refresh-token family with at most one live refresh token, on SQLite
 * and on PostgreSQL. A real server process (main.ts under tsx, as `npm start` runs it):
 * - families are minted through the services of an in-process instance on the same database
 *   (as the grants mint them), before the server starts;
 * - LOOPS clients each refresh their own family over and over, each with the token it was last
 *   given (rotation is on), so requests are always in flight when the process is killed;
 * - the server is started again on the same data; the database holds at most one unused,
 *   unexpired refresh token per family; each client's last known token either still works or
 *   is refused as used (its successor was committed but the answer was lost with the process),
 *   and the database still holds at most one live token per family afterwards.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { clientCreateBody } from '@umbo/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { openProduct } from '../open.js';
import { systemClock } from '../platform/clock.js';
import { loadConfig } from '../platform/config.js';
import { openDb } from '../platform/db.js';
import { defaultRealmSettings } from '../realms/realm-settings.js';
import { serverProcesses, sleep } from '../test/processes.js';

const KEY = '33'.repeat(32);
const PUBLIC_URL = 'http://umbo-kill.test';
const REALM = 'killrt';
const LOOPS = 16;
/** refreshes done before the kill: enough that the loops are well under way */
const BEFORE_KILL = 150;

const procs = serverProcesses();
const startServer = (env: Record<string, string>) => procs.start(env);

/** The realm, a rotating confidential client, a person and LOOPS families with their first refresh tokens. */
async function seed(env: Record<string, string>): Promise<{ clientId: string; secret: string; tokens: string[] }> {
  const { dbh, ctx } = await openProduct(loadConfig({ ...env, LOG_LEVEL: 'silent' }), systemClock);
  try {
    const { repos, services } = ctx;
    const now = Date.now();
    await repos.realms.insertRealm({
      id: REALM,
      name: REALM,
      description: 'A-45',
      settings: JSON.stringify(defaultRealmSettings()),
      created_at: now,
      updated_at: now,
    });
    const created = await services.clients.create(
      { realmId: REALM },
      { actor: null },
      clientCreateBody.parse({
        name: 'kill test app',
        desc: 'A-45 refresh loop',
        authCodeMulitUse: false,
        tokenExpirSec: 600,
        refreshtokenExpirSec: 3600,
        refreshTokenRecreate: true,
        redirectUris: ['http://127.0.0.1/kill/cb'],
        consentRequired: false,
      }),
    );
    const client = (await repos.clients.findByClientId(REALM, created.client.clientId))!;
    const account = await repos.accounts.insertPerson({ realmId: REALM, username: `kill${crypto.randomBytes(4).toString('hex')}`, passwordHash: null, now });
    const tokens: string[] = [];
    for (let i = 0; i < LOOPS; i++) {
      const issued = await services.oauthTokens.mint.issue({
        client,
        grantType: 'authorization_code',
        scope: 'openid offline_access',
        subject: { account, authTime: now },
        now,
      });
      await services.oauthTokens.mint.save(issued);
      tokens.push(issued.response.refresh_token!);
    }
    return { clientId: client.clientId, secret: created.clientSecret!, tokens };
  } finally {
    await ctx.close();
    await dbh.close();
  }
}

/** Unused, unexpired refresh tokens per family (every family of the realm, revoked or not). */
async function liveByFamily(databaseUrl: string): Promise<number[]> {
  const { db, close } = openDb(databaseUrl);
  try {
    const families = await db.selectFrom('oauth_families').select('id').where('realm_id', '=', REALM).execute();
    const rows = await db
      .selectFrom('oauth_refresh_tokens')
      .select(['family_id'])
      .where('realm_id', '=', REALM)
      .where('used_at', 'is', null)
      .where('expires_at', '>', Date.now())
      .execute();
    return families.map((f) => rows.filter((r) => r.family_id === f.id).length);
  } finally {
    await close();
  }
}

async function killDuringRefreshes(env: Record<string, string>, databaseUrl: string) {
  const seeded = await seed(env);
  const first = await startServer(env);
  const auth = `Basic ${Buffer.from(`${seeded.clientId}:${seeded.secret}`).toString('base64')}`;
  const refresh = (base: string, rt: string) =>
    fetch(`${base}/realms/${REALM}/oauth/token`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: rt }),
      signal: AbortSignal.timeout(15_000),
    });
  const latest = [...seeded.tokens];
  let done = 0;
  let failures = 0;
  let killed = false;
  let inFlight = 0;
  const loops = latest.map(async (_, i) => {
    while (!killed) {
      try {
        inFlight++;
        const res = await refresh(first.base, latest[i]!).finally(() => inFlight--);
        const body = (await res.json()) as { refresh_token?: string; error?: string };
        if (res.status !== 200 || !body.refresh_token) {
          failures++;
          throw new Error(`refresh ${res.status}: ${JSON.stringify(body)}`);
        }
        latest[i] = body.refresh_token;
        done++;
      } catch {
        // the connection dies with the process; anything else is counted above
        return;
      }
    }
  });
  for (const end = Date.now() + 60_000; Date.now() < end && done < BEFORE_KILL && failures === 0;) await sleep(5);
  const inFlightAtKill = inFlight;
  first.child.kill('SIGKILL');
  killed = true;
  await first.exited;
  await Promise.all(loops);
  expect(failures, 'a refresh failed before the kill').toBe(0);
  expect(done).toBeGreaterThanOrEqual(BEFORE_KILL);
  // the kill found refreshes under way (every loop sends its next one at once)
  expect(inFlightAtKill).toBeGreaterThan(0);

  // What the file holds after the kill: opening it recovers it, as the restart below does.
  // Read while no server runs: a server holds a SQLite file for itself (platform/db.ts).
  const live = await liveByFamily(databaseUrl);
  expect(live).toHaveLength(LOOPS);
  expect(Math.max(...live), `live refresh tokens per family: ${live.join(',')}`).toBeLessThanOrEqual(1);

  const second = await startServer(env);
  let after: number[];
  try {
    // each client's last known token: still good, or spent by a rotation whose answer was lost
    after = await Promise.all(latest.map(async (rt) => (await refresh(second.base, rt)).status));
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
  expect(after.every((s) => s === 200 || s === 400)).toBe(true);
  expect(after.filter((s) => s === 200).length, `after the restart: ${after.join(',')}`).toBeGreaterThan(0);
  expect(Math.max(...(await liveByFamily(databaseUrl)))).toBeLessThanOrEqual(1);
}

describe('A-45 refresh loop killed half way (kill -9)', () => {
  afterAll(async () => {
    await procs.stopAll();
  });

  const baseEnv = () => {
    const dir = procs.tmpDir('umbo-rtkill-');
    return { DATA_DIR: dir, MASTER_KEY: KEY, PUBLIC_URL, ADMIN_PASSWORD: 'Kill-Test-Admin-5512', MASTER_CAPTCHA_POLICY: 'after_failures' };
  };

  it('[sqlite] every family has at most one live refresh token after a restart', async () => {
    const env = baseEnv();
    await killDuringRefreshes(env, `sqlite:${path.join(env.DATA_DIR, 'umbo.sqlite')}`);
  }, 180_000);

  it('[postgres] every family has at most one live refresh token after a restart', async () => {
    const { url } = await procs.pgSchemaForProcess('t_rtkill_');
    await killDuringRefreshes({ ...baseEnv(), DATABASE_URL: url }, url);
  }, 180_000);
});
