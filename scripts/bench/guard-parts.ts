/**
 * Where an authenticated read's time goes (issue 11), in-process and one call at a time, so
 * that each figure is the cost of one step and not of the machine's other work: the token's
 * keyed hash, the session and account lookups (separate, as the guard did, and joined), the
 * principal (role bindings and their JSON), the whole uncached path, the auth epoch read and
 * the cached path the guard now takes; then the two reads' own work after the guard (the
 * account centre's queries, the permission set's rendering and its zod response check).
 *
 * Run by scripts/bench/guard.mjs: node --import tsx scripts/bench/guard-parts.ts [postgres-url]
 * (SQLite in a temporary directory without an argument). Prints lines for people, then one
 * JSON line of figures.
 */
import '../../apps/server/src/platform/threadpool.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../apps/server/src/platform/config.js';
import { systemClock } from '../../apps/server/src/platform/clock.js';
import { openProduct } from '../../apps/server/src/open.js';
import { okEnvelope } from '../../apps/server/src/platform/http.js';
import { z } from 'zod';

const databaseUrl = process.argv[2];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-bench-parts-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://umbo.bench',
  ADMIN_PASSWORD: 'bench-password-1',
  MASTER_KEY: 'be'.repeat(32),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const { dbh, ctx } = await openProduct(config, systemClock);
const { services, repos, secrets } = ctx;
const figures: Record<string, number> = {};

/** Mean µs of `fn` over `n` sequential calls, after `n / 10` unmeasured ones. */
async function time(label: string, fn: () => unknown, n = 3000): Promise<void> {
  for (let i = 0; i < n / 10; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  const us = ((performance.now() - t0) * 1000) / n;
  figures[label] = us;
  console.log(`  ${label.padEnd(58)} ${us.toFixed(1).padStart(7)} µs`);
}

try {
  const admin = await repos.accounts.findAccountByUsername('master', 'admin');
  if (!admin) throw new Error('no admin');
  const { token } = await services.sessions.issue(admin, { ip: '127.0.0.1', userAgent: 'bench' });
  const hash = secrets.hash('session', token);
  const session = await repos.sessions.findSessionByTokenHash(hash);
  if (!session) throw new Error('no session');
  console.log(`\nwhere an authenticated read's time goes [${dbh.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}], in-process, one call at a time:`);
  await time('token → keyed hash (HMAC-SHA256)', () => secrets.hash('session', token));
  await time('session by token hash (query)', () => repos.sessions.findSessionByTokenHash(hash));
  await time('account by id (query)', () => repos.accounts.findAccountById(session.realm_id, session.account_id));
  await time('principal: role bindings + their JSON (query)', () => services.perm.loadPrincipal(admin));
  await time('uncached guard path (before: session, account, principal)', async () => {
    const found = await services.sessions.authenticate(token);
    await services.perm.loadPrincipal(found!.account);
  });
  await time('auth epoch (query)', () => repos.authEpoch.read());
  await time('cached guard path (now: epoch check + memory)', () => services.sessions.resolve(token));
  const resolved = (await services.sessions.resolve(token))!;
  await time('permission check (perm.allows)', () => services.perm.allows(resolved.principal, 'person', 'query', 'master'));

  console.log('  after the guard:');
  // the OTP state is part of it: turning OTP on or off moves the auth epoch (migration 0034)
  await time('GET /api/users/account: me.info with its OTP state (once per cache entry)', () => services.me.info(resolved.account));
  const current = services.perm.currentUser(resolved.account, resolved.principal);
  // Both reads keep their serialized answer with the guard's cache entry (Resolved.memo): what
  // follows is paid once per entry, not per request.
  await time('GET /api/perm/user/info: currentUser (once per entry)', () => services.perm.currentUser(resolved.account, resolved.principal));
  const body = JSON.stringify({ result: 'ok', code: 0, data: current });
  await time(`  … JSON.stringify of its ${(body.length / 1024).toFixed(0)} KB answer`, () => JSON.stringify({ result: 'ok', code: 0, data: current }), 1000);
  // what fastify-type-provider-zod's serializer does with a response schema: parse, then stringify
  const schema = okEnvelope(z.any());
  await time('  … zod check of the envelope (z.any() data: the floor)', () => schema.parse({ result: 'ok', code: 0, data: current }), 1000);
} finally {
  await ctx.close();
  await dbh.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify({ figures }));
