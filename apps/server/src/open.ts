/**
 * Opening the product on a configuration: database, migrations, the master key's check,
 * first-start bootstrap and the context of services. main.ts, the browser suite's in-process
 * server and the timing bench all start this way; each then builds the HTTP app (buildApp)
 * when its own wiring is in place.
 */
import type { Config } from './platform/config.js';
import type { Clock } from './platform/clock.js';
import { openDb } from './platform/db.js';
import { gatherPlannerStats } from './platform/planner.jobs.js';
import { checkMasterKey, verifyRecordedKey } from './platform/key-check.js';
import { migrateToLatest } from './platform/migrations/index.js';
import { createContext } from './composition/context.js';
import { bootstrap, ensureDefaultClients } from './composition/bootstrap.js';
import type { RealmSettings } from './realms/realm-settings.js';

/** `master`: settings the master realm gets on the first start, over the configuration's. */
export async function openProduct(config: Config, clock: Clock, master: Partial<RealmSettings> = {}) {
  const dbh = openDb(config.databaseUrl);
  let boot;
  try {
    // An instance with another key must not write a thing (issue 9): not the migrations,
    // not the check value, not the bootstrap.
    await verifyRecordedKey(dbh.db, config);
    await migrateToLatest(dbh.db);
    await checkMasterKey(dbh.db, config, clock.now());
    boot = await bootstrap(dbh.db, clock, config.adminPassword, { captchaPolicy: config.masterCaptchaPolicy, ...master });
    // SQLite keeps no planner statistics until asked: without them a prefix search on a phone
    // number at 1,000,000 accounts picked a scan (issue 11 bench: p50 34 ms → 1.2 ms at 100,000).
    // 0x10002 analyses only the tables that need it, with a row limit, so a start stays quick;
    // the figures of nearly empty tables are dropped (platform/planner.jobs.ts).
    if (dbh.dialect === 'sqlite') await gatherPlannerStats(dbh.db);
  } catch (err) {
    // A caller that goes on (tests, the browser suite) must not be left holding a pool.
    await dbh.close().catch(() => {});
    throw err;
  }
  const ctx = createContext(config, dbh, clock);
  try {
    // issue 12: realms older than the OAuth provider get their default client (needs the services)
    await ensureDefaultClients(ctx);
    // issue 13: the platform root CA exists from the first start (made, or the operator's PKI_ROOT_* files)
    await ctx.services.pkiCa.ensurePlatformRoot();
  } catch (err) {
    await ctx.close().catch(() => {});
    await dbh.close().catch(() => {});
    throw err;
  }
  return { dbh, ctx, boot };
}
