/**
 * The Aliyun API gateway signature (gateway-sign.ts) against worked examples, and the signed
 * Ali Living calls (living-api.ts) against the local stand-in gateway: what it accepts, and
 * the stale timestamp, replayed nonce, wrong secret and unknown key it refuses.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbound } from '../../notify/outbound.js';
import { contentMd5, signedJsonHeaders, signString, stringToSign } from './gateway-sign.js';
import { createLivingApi, LivingApiError } from './living-api.js';
import { startStandIn, type StandIn } from './living-standin.testkit.js';

describe('Aliyun API gateway signature: known answers', () => {
  it('builds the stringToSign of the documentation worked example (form body, query and x-ca headers)', () => {
    // help.aliyun.com/document_detail/29475: POST /http2test/test?param1=test with the form
    // body username=xiaoming&password=123456789; its "correct stringToSign" is below.
    const text = stringToSign({
      method: 'POST',
      accept: 'application/json; charset=utf-8',
      contentMd5: '',
      contentType: 'application/x-www-form-urlencoded; charset=utf-8',
      date: 'Wed, 09 May 2018 13:30:29 GMT+00:00',
      headers: {
        'x-ca-timestamp': '1525872629832',
        'x-ca-signature-method': 'HmacSHA256',
        'x-ca-nonce': 'c9f15cbf-f4ac-4a6c-b54d-f51abf4b5b44',
        'x-ca-key': '203753385',
      },
      path: '/http2test/test',
      params: { param1: 'test', username: 'xiaoming', password: '123456789' },
    });
    expect(text).toBe(
      'POST\napplication/json; charset=utf-8\n\napplication/x-www-form-urlencoded; charset=utf-8\nWed, 09 May 2018 13:30:29 GMT+00:00\n' +
        'x-ca-key:203753385\nx-ca-nonce:c9f15cbf-f4ac-4a6c-b54d-f51abf4b5b44\nx-ca-signature-method:HmacSHA256\nx-ca-timestamp:1525872629832\n' +
        '/http2test/test?param1=test&password=123456789&username=xiaoming',
    );
  });

  it('a parameter without a value is signed as its key alone; no parameters: the path alone', () => {
    const base = { method: 'get', accept: '', contentMd5: '', contentType: '', date: '', headers: {} };
    expect(stringToSign({ ...base, path: '/a', params: { b: '', a: '1' } })).toBe('GET\n\n\n\n\n/a?a=1&b');
    expect(stringToSign({ ...base, path: '/a' })).toBe('GET\n\n\n\n\n/a');
  });

  it('signs a JSON body with Content-MD5 to the published test vector', () => {
    // A third-party vector for the same algorithm (JSON body, Content-MD5, an extra signed
    // header), cross-checked with `openssl dgst -sha256 -hmac test-secret-123 -binary | base64`.
    const body = '{"current_page":1,"page_size":1}';
    expect(contentMd5(body)).toBe('8JgfgMCOGQIwvfGwne18dQ==');
    const text = stringToSign({
      method: 'POST',
      accept: 'application/json; charset=utf-8',
      contentMd5: contentMd5(body),
      contentType: 'application/json; charset=utf-8',
      date: '',
      headers: {
        'x-site-tenant': 'US_AMZ',
        'x-ca-key': 'demo-key',
        'x-ca-nonce': '0123456789abcdef0123456789abcdef',
        'x-ca-signature-method': 'HmacSHA256',
        'x-ca-timestamp': '1712250000000',
      },
      path: '/api/v1/page_catalog_offer',
    });
    expect(signString('test-secret-123', text)).toBe('0c6t1WALLI7dwD2a5PazIroZQV3sZgMP7wieK0IkzgA=');
  });

  it('lists the signed x-ca headers, sorted, and never the excluded ones', () => {
    const h = signedJsonHeaders({ appKey: 'k', appSecret: 's', method: 'POST', path: '/p', body: '{}', now: 1_700_000_000_000, nonce: 'n-1' });
    expect(h['x-ca-signature-headers']).toBe('x-ca-key,x-ca-nonce,x-ca-signature-method,x-ca-timestamp');
    expect(h['x-ca-timestamp']).toBe('1700000000000');
    expect(h['content-md5']).toBe(contentMd5('{}'));
    expect(JSON.stringify(h)).not.toContain('"s"');
  });
});

describe('Ali Living calls through the stand-in gateway', () => {
  const creds = { appCloudKey: 'cloud-key', appCloudSecret: 'ali-Secret-993', projectRes: 'a123', appKey: 'living-key' };
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await startStandIn({ appKey: creds.appCloudKey, appSecret: creds.appCloudSecret, projectRes: creds.projectRes, openIdAppKey: creds.appKey });
  });
  afterAll(() => standIn.stop());
  const api = (now = Date.now) => createLivingApi({ baseUrl: standIn.url, allowPrivate: true, timeoutMs: 2000, now });

  it('gets a cloud token, then the identity of the open id, both signed', async () => {
    const before = standIn.accepted.length;
    await expect(api().identityOf(creds, 'acc-1')).resolves.toBe(standIn.identityOf('acc-1'));
    expect(standIn.accepted.slice(before)).toEqual(['/cloud/token', '/cloud/account/getByOpenId']);
  });

  it('a wrong secret is refused by the gateway; the error does not carry the secret', async () => {
    const err = (await api()
      .identityOf({ ...creds, appCloudSecret: 'wrong-Secret-7' }, 'acc-1')
      .catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(LivingApiError);
    expect(err.message).toBe('/cloud/token: gateway answered HTTP 400');
    expect(standIn.refused.at(-1)).toBe('Invalid Signature');
  });

  it('a timestamp older than 15 minutes is refused', async () => {
    await expect(api(() => Date.now() - 16 * 60_000).identityOf(creds, 'acc-1')).rejects.toThrow('HTTP 400');
    expect(standIn.refused.at(-1)).toBe('Invalid Timestamp');
  });

  it('a replayed request (same nonce) is refused the second time', async () => {
    const body = JSON.stringify({ id: '1', version: '1.0', request: { apiVer: '1.0.1' }, params: { grantType: 'project', res: 'a123' } });
    const headers = signedJsonHeaders({
      appKey: creds.appCloudKey,
      appSecret: creds.appCloudSecret,
      method: 'POST',
      path: '/cloud/token',
      body,
      now: Date.now(),
      nonce: crypto.randomUUID(),
    });
    const send = () => outbound({ method: 'POST', url: `${standIn.url}/cloud/token`, headers, body, allowPrivate: true });
    expect((await send()).status).toBe(200);
    const again = await send();
    expect(again.status).toBe(400);
    expect(standIn.refused.at(-1)).toBe('Nonce Used');
  });

  it('an unknown app key is refused', async () => {
    await expect(api().identityOf({ ...creds, appCloudKey: 'other-key' }, 'acc-1')).rejects.toThrow('HTTP 401');
  });

  it('the guarded client refuses the loopback stand-in unless private targets are allowed (A-37)', async () => {
    const guarded = createLivingApi({ baseUrl: standIn.url, allowPrivate: false, timeoutMs: 2000, now: Date.now });
    await expect(guarded.identityOf(creds, 'acc-1')).rejects.toThrow(/unreachable \(refused address 127\.0\.0\.1\)/);
  });
});
