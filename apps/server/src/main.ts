/** Process entry: configuration, database, migrations, first-start bootstrap, jobs, listen. */
import { lowerWorkerPriority } from './platform/threadpool.js';
import { loadConfig, ConfigError } from './platform/config.js';
import { sharedKeyWarning } from './platform/key-check.js';
import { systemClock } from './platform/clock.js';
import { createJobRunner } from './platform/jobs.js';
import { buildApp } from './app.js';
import { coreJobs } from './composition/jobs.js';
import { openProduct } from './open.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // Before the database is opened: said even when this start is then refused for its key.
  const warning = sharedKeyWarning(config);
  if (warning) process.stderr.write(warning);
  const { dbh, ctx, boot } = await openProduct(config, systemClock);
  const app = await buildApp(ctx);

  const jobs = createJobRunner(dbh.db, systemClock, coreJobs(ctx), app.log);
  jobs.start();
  // issue 14: the data centre event queue's delivery loop (federation/bigdata/)
  ctx.services.bigdata.start();

  let closing = false;
  const shutdown = async () => {
    // A signal may arrive twice (terminal and npm); the pools close once.
    if (closing) return;
    closing = true;
    jobs.stop();
    await ctx.services.bigdata.stop();
    await app.close();
    await dbh.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  await lowerWorkerPriority();
  await app.listen({ port: config.port, host: config.host });
  process.stdout.write(`  umbo is listening on ${config.publicUrl}\n`);
  // Last, so that nothing scrolls it away on the first start.
  if (boot.generatedAdminPassword) {
    // Printed once, on the start that created the account (of several instances starting at
    // once, only the one whose bootstrap created it); never logged again.
    process.stdout.write(
      `\n  First administrator created in realm "master":\n    user name: admin\n    password:  ${boot.generatedAdminPassword}\n  Keep it now; it is not shown again.\n\n`,
    );
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err))}\n`);
  process.exit(1);
});
