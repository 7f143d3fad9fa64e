/**
 * with Redis configured and then unreachable (a test-controlled TCP proxy in front of
 * the machine's Redis is cut), codes and captchas fail closed with 503 / 1201 — no check is
 * skipped and nothing falls through to a sign-in — and service resumes when Redis is back.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, captcha, randomMobile } from '../test/kit.js';

const sockets = new Set<net.Socket>();
let proxy: net.Server;
let port = 0;

function startProxy(): Promise<void> {
  proxy = net.createServer((client) => {
    const upstream = net.connect(6379, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) =>
    proxy.listen(port, '127.0.0.1', () => {
      port = (proxy.address() as net.AddressInfo).port;
      resolve();
    }),
  );
}

function cutProxy(): Promise<void> {
  for (const s of sockets) s.destroy();
  return new Promise((resolve) => proxy.close(() => resolve()));
}

beforeAll(startProxy);
afterAll(() => cutProxy().catch(() => {}));

const outage = { result: 'fail', code: 1201, errno: 1201, error: 'database_error', msg: 'Database operation error' };

describeBothDbs(
  'A-46 Redis down',
  (h) => {
    it('codes and captchas answer 503 while Redis is away, and work again after', async () => {
      expect(h().ctx.stores.codes.kind).toBe('redis');
      const mobile = randomMobile();
      const c = await captcha(h());
      const before = await as(h()).post('/api/users/auth/sms-code', { mobile, purpose: 'login', ...c });
      expect(before.status).toBe(200);
      const serialNo = before.body.data.serialNo as string;

      await cutProxy();
      const issue = await as(h()).post('/api/users/auth/sms-code', { mobile: randomMobile(), purpose: 'login', captcha: 'AAAA', serialNo: 'x' });
      expect(issue).toEqual({ status: 503, body: outage });
      const verify = await as(h()).post('/api/users/auth/login/sms', { mobile, code: '123456', serialNo });
      expect(verify).toEqual({ status: 503, body: outage });
      expect(await as(h()).get('/api/users/auth/captcha')).toEqual({ status: 503, body: outage });
      const ft = await as(h()).post('/api/users/auth/login/ftoken', { ftoken: `master.${'a'.repeat(40)}` });
      expect(ft.status).toBe(503);

      await startProxy();
      let back = 0;
      for (let i = 0; i < 50 && back !== 200; i++) {
        await new Promise((r) => setTimeout(r, 200));
        back = (await as(h()).get('/api/users/auth/captcha')).status;
      }
      expect(back).toBe(200);
      // the code issued before the outage is still checked, not skipped
      const wrong = await as(h()).post('/api/users/auth/login/sms', { mobile, code: '000000', serialNo });
      expect(wrong.body.code).toBe(4006);
    });
    // A getter: the proxy's port is known only once beforeAll has started it.
  },
  {
    get REDIS_URL() {
      return `redis://127.0.0.1:${port}/0?keyPrefix=umbo-test:${crypto.randomBytes(6).toString('hex')}:`;
    },
  } as unknown as Record<string, string>,
);
