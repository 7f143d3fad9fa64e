/**
 * Opening the product on a configuration: database, migrations, first-start bootstrap and the
 * context of services. main.ts, the browser suite's in-process server and the timing bench all
 * start this way; each then builds the HTTP app (buildApp) when its own wiring is in place.
 */
import type { Config } from './platform/config.js';
import type { Clock } from './platform/clock.js';
import { openDb } from './platform/db.js';
import { migrateToLatest } from './platform/migrations/index.js';
import { createContext } from './context.js';
import { bootstrap } from './realms/bootstrap.js';
import type { RealmSettings } from './realms/realm-settings.js';

/** `master`: settings the master realm gets on the first start, over the configuration's. */
export async function openProduct(config: Config, clock: Clock, master: Partial<RealmSettings> = {}) {
  const dbh = openDb(config.databaseUrl);
  await migrateToLatest(dbh.db);
  const boot = await bootstrap(dbh.db, clock, config.adminPassword, { captchaPolicy: config.masterCaptchaPolicy, ...master });
  const ctx = createContext(config, dbh, clock);
  return { dbh, ctx, boot };
}
