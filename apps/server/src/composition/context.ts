/**
 * The composition root (issue 9): the whole product is assembled here, once per process, bottom
 * up — repositories (repos.ts), then services (services.ts); routes.ts registers the routes
 * on the app and jobs.ts lists the periodic sweeps. Everything is passed down explicitly.
 */
import type { DestinationStream } from 'pino';
import { loadNotifyConfig, type NotifyConfig } from '../notify/config.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { createSecrets } from '../platform/crypto.js';
import { transactOn, type DbHandle } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import { createRequestWindow } from '../platform/metrics.js';
import { createRedis } from '../platform/redis.js';
import { createRepos, createStores } from './repos.js';
import { createServices } from './services.js';

export interface ContextOptions {
  /** where log lines go (default: stdout); tests capture them to grep for secrets */
  logDestination?: DestinationStream;
  /** default: read from process.env (SMTP_URL, SMS_PROVIDER, …) */
  notifyConfig?: NotifyConfig;
}

export function createContext(config: Config, dbh: DbHandle, clock: Clock, opts: ContextOptions = {}) {
  const db = dbh.db;
  // One logger for the process: the HTTP server and every service log through it (redaction, issue 8).
  const log = createLogger(config.logLevel, opts.logDestination);
  const secrets = createSecrets(config.masterKey);
  const redis = config.redisUrl ? createRedis(config.redisUrl) : undefined;
  const notifyConfig = opts.notifyConfig ?? loadNotifyConfig(process.env);
  if (notifyConfig.sms.provider === 'outbox' || !notifyConfig.smtpUrl) {
    log
      .child({ name: 'notify' })
      .warn(
        'no SMTP_URL or SMS_PROVIDER: messages, codes included, go to the outbox (readable by master administrators). You MUST configure delivery before production use.',
      );
  }

  const repos = createRepos(db);
  const stores = createStores(repos, redis);
  // The monitor page's figures (issue 11): this process's last minutes of requests, database and Redis pings.
  const requestWindow = createRequestWindow();
  const probes = {
    dialect: dbh.dialect,
    database: () => dbh.ping(),
    redis: redis
      ? () =>
          redis.ping().then(
            () => true,
            () => false,
          )
      : undefined,
  };
  const services = createServices({ config, clock, secrets, log, repos, stores, transact: transactOn(db), notifyConfig, requestWindow, probes });

  /** Pending deliveries finish and Redis is let go (the app calls this when it closes). */
  async function close(): Promise<void> {
    await services.notify.settled();
    // the counted client_credentials issuances of this process (oauth/tokens/token-events.ts)
    await services.oauthTokenEvents.close().catch(() => undefined);
    redis?.disconnect();
  }

  return { config, dbh, db, clock, secrets, log, repos, stores, services, requestWindow, close };
}

export type AppContext = ReturnType<typeof createContext>;
