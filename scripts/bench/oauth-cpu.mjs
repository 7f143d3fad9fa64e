/**
 * umbo's server CPU per client_credentials token, alone: the figure to compare before and after
 * a change to the token path when the machine is too busy for tokens/s to mean much (issue 12).
 * The compiled server (as scripts/bench/oauth.mjs runs it) is pinned to core 1 and the load
 * client to core 0; after a warm-up, each round sends a fixed number of tokens at 10 keep-alive
 * connections and divides the server's CPU time (user + system, every thread, /proc) by them.
 *
 *   node scripts/bench/oauth-cpu.mjs [--pg] [--tokens N] [--rounds N] [--no-build] [--entry main.js]
 *                                    [--endpoint=token|introspect|userinfo]
 *
 * `--endpoint`: the request measured (default token). introspect: the client introspects a
 * client_credentials token it was issued (as oauth.mjs does); userinfo: the seeded user's
 * access token at GET userinfo. Either way, the figure is CPU per request.
 * `--entry`: another compiled server (e.g. one built from the code before a change) instead of
 * building the tree's; it must lie under the repository so that node_modules resolves.
 *
 * BENCH_CPU_PROF=dir writes the server's V8 CPU profile there when it stops (lib.mjs).
 */
import path from 'node:path';
import { COMPILED, compiledServer, cores, cpuSeconds, pinSelf, rawConnection, rawRequest } from './lib.mjs';
import { startUmbo } from './oauth.mjs';

const CONNECTIONS = 10;
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const tokens = arg('--tokens', 4000);
const rounds = arg('--rounds', 5);
const dialect = process.argv.includes('--pg') ? 'postgres' : 'sqlite';
const endpoint = process.argv.find((a) => a.startsWith('--endpoint='))?.slice('--endpoint='.length) ?? 'token';
if (!['token', 'introspect', 'userinfo'].includes(endpoint)) throw new Error(`--endpoint: token, introspect or userinfo, not ${endpoint}`);
const FORM = 'application/x-www-form-urlencoded';
const basic = (id, secret) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** `n` token requests spread over the connections; answers the elapsed ms. */
async function send(conns, req, n) {
  let left = n;
  const t0 = performance.now();
  await Promise.all(
    conns.map(async (c) => {
      while (left-- > 0) {
        const { status } = await c.send(req);
        if (status !== 200) throw new Error(`${endpoint} endpoint answered ${status}`);
      }
    }),
  );
  return performance.now() - t0;
}

if (cores > 1) pinSelf('0');
const entryAt = process.argv.indexOf('--entry');
const entry = entryAt > 0 ? path.resolve(process.argv[entryAt + 1]) : COMPILED;
if (entryAt < 0 && !process.argv.includes('--no-build')) await compiledServer();
const umbo = await startUmbo(cores > 1 ? 1 : undefined, dialect, entry);
try {
  const auth = basic(umbo.client.id, umbo.client.secret);
  const form = (url, body) => rawRequest(umbo.base, 'POST', url, { headers: { authorization: auth, 'content-type': FORM }, body });
  let req = form(umbo.tokenPath, umbo.tokenBody);
  if (endpoint === 'introspect') {
    const res = await fetch(new URL(umbo.tokenPath, umbo.base), {
      method: 'POST',
      headers: { authorization: auth, 'content-type': FORM },
      body: umbo.tokenBody,
    });
    const { access_token: token } = await res.json();
    req = form(`${umbo.realm}/oauth/introspect`, `token=${token}&token_type_hint=access_token`);
  } else if (endpoint === 'userinfo') {
    req = rawRequest(umbo.base, 'GET', `${umbo.realm}/oauth/userinfo`, { headers: { authorization: `Bearer ${umbo.seed.userAccessToken}` } });
  }
  const conns = Array.from({ length: CONNECTIONS }, () => rawConnection(umbo.base));
  await send(conns, req, 3000);
  const perToken = [];
  for (let r = 0; r < rounds; r++) {
    const cpu0 = cpuSeconds(umbo.child.pid);
    const ms = await send(conns, req, tokens);
    const us = ((cpuSeconds(umbo.child.pid) - cpu0) * 1e6) / tokens;
    perToken.push(us);
    console.log(`  round ${r + 1}: ${us.toFixed(0)} µs CPU/request, ${((tokens * 1000) / ms).toFixed(0)} requests/s`);
  }
  for (const c of conns) c.close();
  const sorted = [...perToken].sort((a, b) => a - b);
  console.log(
    `umbo [${dialect}] CPU per ${endpoint === 'token' ? 'client_credentials token' : `${endpoint} request`}: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} µs, min ${sorted[0].toFixed(0)} µs`,
  );
} finally {
  await umbo.stop();
}
