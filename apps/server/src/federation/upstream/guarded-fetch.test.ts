/**
 * openid-client's fetch as openid-client sees it: a WHATWG Response with the upstream's
 * status, headers and bytes, made by notify/outbound.ts's guard. A loopback server stands in
 * for the upstream; its request log shows what was refused never reached it.
 */
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OutboundRefused } from '../../notify/outbound.js';
import { createGuardedFetch } from './guarded-fetch.js';

const hits: string[] = [];
let base = '';
const server = http.createServer((req, res) => {
  hits.push(`${req.method} ${req.url}`);
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    if (req.url === '/token') {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="up"', 'set-cookie': ['a=1', 'b=2'] });
      res.end(JSON.stringify({ error: 'invalid_client', sent: body, type: req.headers['content-type'], accept: req.headers.accept }));
    } else if (req.url === '/empty') res.writeHead(204).end();
    else if (req.url === '/moved') res.writeHead(302, { location: `${base}/jwks` }).end();
    else if (req.url === '/big') res.end('x'.repeat(300 * 1024));
    else if (req.url === '/slow') setTimeout(() => res.end('late'), 2_000);
    else res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end('{"keys":[]}');
  });
});
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve())));
beforeAll(() => {
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const allowed = createGuardedFetch({ allowPrivate: true });

it("answers the upstream's status, headers and body (what openid-client reads)", async () => {
  const res = await allowed(`${base}/token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c1' }),
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Basic realm="up"');
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('set-cookie')).toBe('a=1, b=2');
  expect(await res.json()).toEqual({
    error: 'invalid_client',
    sent: 'grant_type=authorization_code&code=c1',
    type: 'application/x-www-form-urlencoded',
    accept: 'application/json',
  });
  const jwks = await allowed(new URL(`${base}/jwks`));
  expect([jwks.status, jwks.headers.get('content-type'), await jwks.text()]).toEqual([200, 'application/jwk-set+json', '{"keys":[]}']);
});

it('a 204 has no body, and a 3xx comes back as it is: the redirect is not followed', async () => {
  hits.length = 0;
  const empty = await allowed(`${base}/empty`);
  expect([empty.status, empty.body]).toEqual([204, null]);
  const moved = await allowed(`${base}/moved`);
  expect([moved.status, moved.headers.get('location')]).toEqual([302, `${base}/jwks`]);
  expect(hits).toEqual(['GET /empty', 'GET /moved']);
});

it('a private upstream is refused unless the operator allows it, and it sees no request', async () => {
  hits.length = 0;
  const guarded = createGuardedFetch({ allowPrivate: false });
  await expect(guarded(`${base}/jwks`)).rejects.toBeInstanceOf(OutboundRefused);
  const port = new URL(base).port;
  await expect(guarded(`http://[::ffff:7f00:1]:${port}/jwks`)).rejects.toBeInstanceOf(OutboundRefused);
  // a name whose answer holds a private address, even beside a public one
  const rebinding = createGuardedFetch({
    allowPrivate: false,
    resolve: async () => [
      { address: '8.8.8.8', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
  });
  await expect(rebinding(`http://upstream.test:${port}/jwks`)).rejects.toBeInstanceOf(OutboundRefused);
  expect(hits).toEqual([]);
});

it('an answer over the size bound fails; so does a call its signal aborts', async () => {
  await expect(allowed(`${base}/big`)).rejects.toThrow('response too large');
  expect((await createGuardedFetch({ allowPrivate: true, maxBytes: 400 * 1024 })(`${base}/big`)).status).toBe(200);
  const started = Date.now();
  await expect(allowed(`${base}/slow`, { signal: AbortSignal.timeout(100) })).rejects.toThrow('aborted');
  expect(Date.now() - started).toBeLessThan(1_500);
  await expect(allowed(`${base}/jwks`, { signal: AbortSignal.abort() })).rejects.toThrow('aborted');
});

it('other methods and body types than openid-client sends are refused before anything is sent', async () => {
  hits.length = 0;
  await expect(allowed(`${base}/jwks`, { method: 'DELETE' })).rejects.toBeInstanceOf(OutboundRefused);
  await expect(allowed(`${base}/token`, { method: 'POST', body: new Blob(['x']) })).rejects.toBeInstanceOf(OutboundRefused);
  expect(hits).toEqual([]);
});
