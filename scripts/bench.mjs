#!/usr/bin/env node
/**
 * `npm run bench`: prints figures and checks the budgets named in the issues. Never part of
 * `npm test` (no timed assertions in tests). Starts its own servers (on temporary SQLite data
 * dirs, and on PostgreSQL databases of its own that it creates and drops); needs the console
 * built (npm run build) for the bundle figures.
 *
 * Parts (scripts/bench/*.mjs), in this order:
 * - bundle     first-load JavaScript of the sign-in page and the shell (scripts/bench-bundle.mjs)
 * - signin     password sign-ins ÷ bare argon2id hashes; authenticated p99 during a sign-in storm
 * - timing     A-30 / A-35: unknown vs known accounts at sign-in and reset (scripts/bench-timing.ts)
 * - codes      code verifications per second, codes in SQLite and in Redis
 * - guard      authenticated reads per second ÷ a bare Fastify hello-world, one core (issue 11)
 * - oauth      client_credentials tokens/s and p99 ÷ oidc-provider and ÷ a Fastify hello-world, one
 *              core; introspection and userinfo per second (issue 12; scripts/bench/oauth.mjs)
 * - pki        certificates issued per second from EC P-256 CSRs over HTTP ÷ the bare library rate;
 *              revocation with CRL regeneration as the revoked list grows (issue 13; scripts/bench/pki.mjs)
 * - federation password sign-ins through an IT-interface backend answering in 20 ms, 50 concurrent:
 *              added latency over the backend's own (target ≤ 2 ms p50), umbo's event-loop delay
 *              (issue 14; scripts/bench/federation.mjs)
 * - directory  1,000,000 person accounts on SQLite and PostgreSQL: seeding, prefix and
 *              "contains" search, keyset pages at any depth, totals, CSV import and export (issue 11)
 *
 * Options: --quick (the directory at 100,000 accounts, shorter walks), --only=guard,directory
 * (some parts), --count=N (directory size), --sqlite / --pg (one database only).
 * PostgreSQL: BENCH_PG_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test;
 * the bench uses its own databases umbo_bench_* on that server, never the one named).
 * About 15 minutes on a 2-core machine; --quick about 5.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { benchDirectory } from './bench/directory.mjs';
import { benchFederation } from './bench/federation.mjs';
import { benchGuard } from './bench/guard.mjs';
import { benchOAuth } from './bench/oauth.mjs';
import { benchPki } from './bench/pki.mjs';
import { printVerdicts, root, verdict } from './bench/lib.mjs';
import { pgAvailable } from './bench/pg.mjs';
import { benchCodes, benchSignIns, benchTiming } from './bench/signin.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = flag('quick');
const only = option('only')?.split(',');
const wanted = (part) => !only || only.includes(part);
const count = Number(option('count') || (quick ? 100_000 : 1_000_000));
const started = performance.now();

const hasPg = await pgAvailable();
const dialects = ['sqlite', 'postgres'].filter((d) => (flag('sqlite') ? d === 'sqlite' : flag('pg') ? d === 'postgres' : true));
const usable = dialects.filter((d) => d === 'sqlite' || hasPg);
if (dialects.includes('postgres') && !hasPg) {
  console.log('PostgreSQL: nothing answers (BENCH_PG_URL / TEST_DATABASE_URL); its figures are skipped');
  verdict('PostgreSQL figures', 'skipped', false, 'no PostgreSQL server reachable');
}

if (wanted('bundle') && fs.existsSync(path.join(root, 'scripts/bench-bundle.mjs'))) {
  const r = spawnSync('node', ['scripts/bench-bundle.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) verdict('bundle budgets', 'see above', false, 'scripts/bench-bundle.mjs failed');
}
if (wanted('signin')) await benchSignIns();
if (wanted('timing')) benchTiming();
if (wanted('codes')) await benchCodes();
if (wanted('guard')) for (const dialect of usable) await benchGuard({ dialect, seconds: quick ? 2 : 3, rounds: quick ? 2 : 3 });
if (wanted('oauth')) for (const dialect of usable) await benchOAuth({ dialect, seconds: quick ? 2 : 3, rounds: quick ? 2 : 3 });
if (wanted('pki')) for (const dialect of usable) await benchPki({ dialect, seconds: quick ? 2 : 3, revoked: quick ? 500 : 2000 });
if (wanted('federation')) await benchFederation({ seconds: quick ? 6 : 10, rounds: 2 });
if (wanted('directory')) for (const dialect of usable) await benchDirectory({ dialect, count, quick });

printVerdicts();
console.log(`\nbench took ${((performance.now() - started) / 60_000).toFixed(1)} min`);
