/**
 * A backend that fails (issue 14, A-44's spirit): down, slow (> 3 s), garbage, 500 → 1303
 * "Connect it error", never a 500 of ours, no shadow account; the breaker opens after
 * consecutive failures and the monitor page shows it. Forged and replayed signatures are
 * refused by the reference backend.
 */
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, signIn } from '../../test/kit.js';
import { signRequest } from './signature.js';
import { accountsOf, APP_KEY, APP_SECRET, itGroup, itRealm, PREFIX, startReference, type RefBackend } from './it.testkit.js';

type Mode = 'slow' | 'garbage' | 'server_error' | 'no_user';
/** A misbehaving backend: the realm's path (first segment) picks the misbehaviour. */
let chaos: http.Server;
let chaosPort: number;
let downPort: number;
let ref: RefBackend;

beforeAll(async () => {
  ref = await startReference();
  chaos = http.createServer((req, res) => {
    const mode = (req.url ?? '').split('/')[1] as Mode;
    if (mode === 'slow') return void setTimeout(() => res.end('{"code":0,"data":{}}'), 4000);
    if (mode === 'garbage') return void res.end('<html>not json</html>');
    if (mode === 'server_error') return void res.writeHead(500).end('{"code":0}');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ code: 0, data: { user: { userId: 'no spaces allowed' } } }));
  });
  await new Promise<void>((r) => chaos.listen(0, '127.0.0.1', r));
  chaosPort = (chaos.address() as AddressInfo).port;
  // a port nobody listens on: listen, note it, close
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  downPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
});
afterAll(async () => {
  chaos.closeAllConnections();
  await new Promise<void>((r) => chaos.close(() => r()));
  await ref.close();
});

const connectItError = (reason: string) => ({
  status: 502,
  body: { result: 'fail', code: 1303, errno: 1303, error: 'connect_it_error', msg: 'Connect it error (error calling the IT server)', errData: { reason } },
});

describeBothDbs('IT-interface backend failures', (h) => {
  const cases: [string, () => ReturnType<typeof itGroup>, string][] = [
    ['down', () => itGroup('ecogloble', downPort), 'unreachable'],
    ['slow (> 3 s)', () => itGroup('ecogloble', chaosPort, { path: '/slow' }), 'timeout'],
    ['garbage', () => itGroup('ecogloble', chaosPort, { path: '/garbage' }), 'bad_answer'],
    ['500', () => itGroup('default', chaosPort, { path: '/server_error' }), 'server_error'],
    ['a user that is not one', () => itGroup('default', chaosPort, { path: '/no_user' }), 'bad_answer'],
    ['a wrong appSercet (signature refused)', () => itGroup('ecogloble', ref.port), 'signature_refused'],
  ];
  for (const [name, group, reason] of cases) {
    it(`backend ${name} → 1303 (${reason}), no shadow account`, async () => {
      const realmId = await itRealm(h(), group(), name.startsWith('a wrong') ? 'not-the-secret' : APP_SECRET);
      const t0 = Date.now();
      const res = await signIn(h(), { username: 'someone', password: 'Some-Password-1', realmId });
      expect(res).toEqual(connectItError(reason));
      // under the console's 6 s (SPEC §9)
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(await accountsOf(h(), realmId)).toEqual([]);
    });
  }

  it('the breaker opens after 5 consecutive failures, fails fast, and the monitor shows it', async () => {
    const realmId = await itRealm(h(), itGroup('ecogloble', downPort));
    for (let i = 0; i < 5; i++)
      expect((await signIn(h(), { username: `u${i}`, password: 'Some-Password-1', realmId })).body.errData).toEqual({ reason: 'unreachable' });
    expect(await signIn(h(), { username: 'u6', password: 'Some-Password-1', realmId })).toEqual(connectItError('breaker_open'));
    const monitor = await as(h(), await h().login()).get('/api/users/dashboard/monitor');
    expect(monitor.status).toBe(200);
    expect(monitor.body.data.backends).toContainEqual(
      expect.objectContaining({ realmId, type: 'ecogloble', state: 'open', consecutiveFailures: 5, lastFailure: 'unreachable' }),
    );
    // after the cool-down one trial goes through (half-open); still down → open again
    h().clock.advance(31_000);
    expect((await signIn(h(), { username: 'u7', password: 'Some-Password-1', realmId })).body.errData).toEqual({ reason: 'unreachable' });
    expect((await signIn(h(), { username: 'u8', password: 'Some-Password-1', realmId })).body.errData).toEqual({ reason: 'breaker_open' });
  });
});

it('the reference backend refuses a forged, a replayed and a stale signature', async () => {
  const body = JSON.stringify({ account: 'x', password: 'y' });
  const send = (headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${ref.port}${PREFIX}/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then(
      async (r) => ({
        status: r.status,
        msg: ((await r.json()) as { msg: string }).msg,
      }),
    );
  const sign = (secret: string, nowMs = Date.now()) => signRequest({ appKey: APP_KEY, secret, method: 'POST', pathWithQuery: `${PREFIX}/login`, body, nowMs });
  expect(await send(sign('forged-secret'))).toEqual({ status: 401, msg: 'bad_signature' });
  const genuine = sign(APP_SECRET);
  expect((await send(genuine)).status).toBe(200);
  expect(await send(genuine)).toEqual({ status: 401, msg: 'replayed_nonce' });
  expect(await send(sign(APP_SECRET, Date.now() - 6 * 60_000))).toEqual({ status: 401, msg: 'stale_timestamp' });
  // a genuine signature with its nonce swapped
  expect(await send({ ...sign(APP_SECRET), 'x-it-nonce': 'another-nonce-123456' })).toEqual({ status: 401, msg: 'bad_signature' });
});
