/**
 * TRUST_PROXY on real requests (issue 8, defect 10; SECURITY.md A-31): behind a proxy that
 * appends the peer to X-Forwarded-For, the client address is what the proxy appended, never
 * what the client wrote to the left of it, so the per-address sign-in throttle cannot be
 * walked past by rotating that value. Parsing and refusals: config.test.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../test/harness.js';
import { as, captcha, createPerson, randomIp, randomName, type Answer, type TestAccount } from '../test/kit.js';
import { THROTTLE_DEFAULTS } from '../auth/throttle/defaults.js';
import { loadConfig } from './config.js';

const PROXY = '127.0.0.1';
const SPOOFED = '6.6.6.6';
const CLIENT = '203.0.113.9';

/** req.ip and req.ips of one request through a Fastify built with TRUST_PROXY's option, as app.ts passes it. */
async function seen(trustProxy: string | undefined, remoteAddress: string, xff?: string): Promise<{ ip: string; ips: string[] | undefined }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-tp-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, MASTER_KEY: '11'.repeat(32), ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }) });
    const app = Fastify({ trustProxy: config.trustProxy });
    app.get('/ip', (req) => ({ ip: req.ip, ips: req.ips }));
    try {
      const res = await app.inject({ method: 'GET', url: '/ip', remoteAddress, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } });
      return res.json();
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('A-31 TRUST_PROXY decides which X-Forwarded-For hop is the client', () => {
  it('unset: X-Forwarded-For is ignored, req.ip is the socket address', async () => {
    expect((await seen(undefined, PROXY, `${SPOOFED}, ${CLIENT}`)).ip).toBe(PROXY);
    expect((await seen('false', PROXY, `${SPOOFED}, ${CLIENT}`)).ip).toBe(PROXY);
  });

  it.each([['1'], ['127.0.0.1/8'], ['loopback'], ['10.0.0.5, 127.0.0.1']])(
    'TRUST_PROXY=%s, one proxy on 127.0.0.1: the address it appended, not the spoofed one',
    async (value) => {
      expect((await seen(value, PROXY, `${SPOOFED}, ${CLIENT}`)).ip).toBe(CLIENT);
      // a spoofed value that looks like a trusted proxy changes nothing: the walk from the
      // right stops at the first untrusted hop, the one the proxy appended
      expect((await seen(value, PROXY, `${SPOOFED}, 127.0.0.9, ${CLIENT}`)).ip).toBe(CLIENT);
      // nothing forwarded: the peer itself
      expect((await seen(value, PROXY)).ip).toBe(PROXY);
    },
  );

  it.each([['2'], ['127.0.0.1, 10.0.0.0/8']])('TRUST_PROXY=%s, two proxies: the address the outer one appended', async (value) => {
    // client → outer proxy (appends CLIENT) → inner proxy 10.0.0.7 (appends the outer) → umbo
    expect((await seen(value, PROXY, `${SPOOFED}, ${CLIENT}, 10.0.0.7`)).ip).toBe(CLIENT);
  });

  it('a list of proxy addresses ignores X-Forwarded-For from a client that reaches the port directly', async () => {
    expect((await seen('127.0.0.1/8', '198.51.100.20', SPOOFED)).ip).toBe('198.51.100.20');
  });

  it('a hop count cannot tell a direct client from the proxy (why the README prefers addresses)', async () => {
    expect((await seen('1', '198.51.100.20', SPOOFED)).ip).toBe(SPOOFED);
  });
});

/** A wrong-password sign-in arriving from the proxy on 127.0.0.1 with the given X-Forwarded-For. */
async function signInThroughProxy(h: Harness, who: Pick<TestAccount, 'username' | 'realmId' | 'password'>, xff: string): Promise<Answer> {
  const body = { username: who.username, password: who.password, realm_id: who.realmId, ...(await captcha(h, who.realmId)) };
  return as(h).post('/api/users/auth/login', body, { ip: PROXY, headers: { 'x-forwarded-for': xff } });
}

/** An address from 100.64/10, never one randomIp() (10/8) hands out for the real client. */
const spoofedIp = () => `100.${64 + crypto.randomInt(64)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

for (const trustProxy of ['1', '127.0.0.1/8']) {
  describeBothDbs(
    `A-31 per-address sign-in throttle behind one proxy (TRUST_PROXY=${trustProxy})`,
    (h) => {
      it('A-31 rotating the leftmost X-Forwarded-For does not reset the per-address counter', async () => {
        const real = randomIp();
        const p = THROTTLE_DEFAULTS.ip;
        let last: Answer | undefined;
        // fresh user names each time, so only the per-address counter can stop this
        for (let i = 0; i <= p.freeFailures; i++) {
          last = await signInThroughProxy(h(), { username: randomName('spray'), password: 'Spray-Pass-1', realmId: 'master' }, `${spoofedIp()}, ${real}`);
          if (i < p.freeFailures) expect(last.body.errData).toBeUndefined();
        }
        expect(last!.body.errData).toMatchObject({ locked: true });

        // even the right password of a real account is held back from that address …
        const a = await createPerson(h());
        expect((await signInThroughProxy(h(), a, `${spoofedIp()}, ${real}`)).body.errData).toMatchObject({ locked: true });
        // … while another client behind the same proxy is not, even one that writes the locked
        // address to the left: only what the proxy appended counts
        expect((await signInThroughProxy(h(), a, `${real}, ${randomIp()}`)).status).toBe(200);
      });
    },
    { TRUST_PROXY: trustProxy },
  );
}
