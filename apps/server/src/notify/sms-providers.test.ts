/**
 * SMS providers against local HTTP receivers that check their real wire formats (issue 3):
 * Aliyun's RPC signature v1 (recomputed here independently), Twilio's form post with Basic
 * auth, the webhook's HMAC header; private targets refused by default; a realm's own
 * provider with sealed secrets used by the sign-in flow.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, captcha, createPerson, createRealm, randomMobile, settled } from '../test/kit.js';
import { createAliyunSms } from './sms/aliyun.js';
import { createTwilioSms } from './sms/twilio.js';
import { createWebhookSms } from './sms/webhook.js';

interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const hits: Hit[] = [];
let reply: (hit: Hit) => { status: number; body: string } = () => ({ status: 200, body: '{}' });
let base = '';
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const hit = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    hits.push(hit);
    const r = reply(hit);
    res.writeHead(r.status, { 'content-type': 'application/json' }).end(r.body);
  });
});
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';
beforeAll(
  () =>
    new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', () => {
        base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
        resolve();
      }),
    ),
);
afterAll(() => {
  delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

/** RFC 3986 percent-encoding byte by byte, as Aliyun's signature document describes it. */
function aliyunEncode(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function verifyAliyun(body: string, secret: string): Record<string, string> {
  const params = Object.fromEntries(new URLSearchParams(body));
  const { Signature, ...rest } = params;
  const canonical = Object.keys(rest)
    .sort()
    .map((k) => `${aliyunEncode(k)}=${aliyunEncode(rest[k]!)}`)
    .join('&');
  const expected = crypto
    .createHmac('sha1', `${secret}&`)
    .update(`POST&${aliyunEncode('/')}&${aliyunEncode(canonical)}`)
    .digest('base64');
  if (Signature !== expected) throw new Error(`bad signature ${Signature} != ${expected}`);
  return rest;
}

const msg = { to: '+8613800138000', text: '【umbo】您的验证码是 123456', code: '123456', purpose: 'login' };

it('Aliyun: SendSms with a valid RPC v1 signature and the template parameters', async () => {
  hits.length = 0;
  reply = () => ({ status: 200, body: JSON.stringify({ Code: 'OK', Message: 'OK', RequestId: 'x', BizId: 'y' }) });
  const sms = createAliyunSms({
    accessKeyId: 'testId',
    accessKeySecret: 'testSecret',
    signName: '阿里云短信测试',
    templateCode: 'SMS_71390007',
    endpoint: base,
    allowPrivate: true,
    now: () => new Date(Date.UTC(2017, 6, 12, 2, 42, 19)),
  });
  await sms.send('master', msg);
  expect(hits).toHaveLength(1);
  expect(hits[0]!.method).toBe('POST');
  expect(hits[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  const p = verifyAliyun(hits[0]!.body, 'testSecret');
  expect(p).toMatchObject({
    AccessKeyId: 'testId',
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: '13800138000',
    RegionId: 'cn-hangzhou',
    SignName: '阿里云短信测试',
    SignatureMethod: 'HMAC-SHA1',
    SignatureVersion: '1.0',
    TemplateCode: 'SMS_71390007',
    TemplateParam: '{"code":"123456"}',
    Timestamp: '2017-07-12T02:42:19Z',
    Version: '2017-05-25',
  });
  expect(p.SignatureNonce).toMatch(/^[0-9a-f-]{36}$/);
  expect(() => verifyAliyun(hits[0]!.body, 'otherSecret')).toThrow(/bad signature/);
  // international numbers: country code + number, no plus
  await sms.send('master', { ...msg, to: '+14155550123' });
  expect(verifyAliyun(hits[1]!.body, 'testSecret').PhoneNumbers).toBe('14155550123');
  reply = () => ({ status: 200, body: JSON.stringify({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'limit' }) });
  await expect(sms.send('master', msg)).rejects.toThrow(/BUSINESS_LIMIT_CONTROL/);
});

it('Twilio: form POST to Messages.json with Basic auth', async () => {
  hits.length = 0;
  reply = () => ({ status: 201, body: '{"sid":"SM1"}' });
  const sms = createTwilioSms({ accountSid: 'AC0123', authToken: 'tok', from: '+15005550006', endpoint: base, allowPrivate: true });
  await sms.send('master', { ...msg, to: '+14155550123', text: 'Your code is 123456' });
  const hit = hits[0]!;
  expect(hit.url).toBe('/2010-04-01/Accounts/AC0123/Messages.json');
  expect(hit.headers.authorization).toBe(`Basic ${Buffer.from('AC0123:tok').toString('base64')}`);
  expect(hit.headers['content-type']).toBe('application/x-www-form-urlencoded');
  expect(Object.fromEntries(new URLSearchParams(hit.body))).toEqual({ To: '+14155550123', From: '+15005550006', Body: 'Your code is 123456' });
  reply = () => ({ status: 401, body: '{"code":20003}' });
  await expect(sms.send('master', msg)).rejects.toThrow(/401/);
});

it('webhook: JSON body signed with HMAC-SHA256; private targets refused unless allowed (A-37)', async () => {
  hits.length = 0;
  reply = () => ({ status: 204, body: '' });
  await createWebhookSms({ url: `${base}/sms`, secret: 's3cret', allowPrivate: true }).send('r1', msg);
  const hit = hits[0]!;
  expect(JSON.parse(hit.body)).toEqual({ realmId: 'r1', to: msg.to, text: msg.text, code: '123456', purpose: 'login' });
  expect(hit.headers['x-umbo-signature']).toBe(`sha256=${crypto.createHmac('sha256', 's3cret').update(hit.body).digest('hex')}`);
  for (const url of [`${base}/sms`, base.replace('127.0.0.1', 'localhost'), 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://10.0.0.1/']) {
    await expect(createWebhookSms({ url, allowPrivate: false }).send('r1', msg)).rejects.toThrow(/refused/);
  }
  expect(hits).toHaveLength(1);
});

describeBothDbs("a realm's own SMS provider", (h) => {
  it("sends the sign-in code through the realm's Twilio account (sealed token)", async () => {
    hits.length = 0;
    reply = () => ({ status: 201, body: '{}' });
    const realm = await createRealm(h(), {
      sms: { provider: 'twilio', accountSid: 'AC9', authToken: h().ctx.secrets.encrypt('realm-token'), from: '+15005550006', endpoint: base },
    });
    const mobile = randomMobile();
    await createPerson(h(), { realmId: realm, phone: `+86${mobile}`, password: null });
    const res = await as(h()).post('/api/users/auth/sms-code', { realm_id: realm, mobile, purpose: 'login', ...(await captcha(h(), realm)) });
    expect(res.status).toBe(200);
    await settled(h());
    expect(hits).toHaveLength(1);
    expect(hits[0]!.headers.authorization).toBe(`Basic ${Buffer.from('AC9:realm-token').toString('base64')}`);
    const form = new URLSearchParams(hits[0]!.body);
    expect(form.get('To')).toBe(`+86${mobile}`);
    const code = /\b(\d{6})\b/.exec(form.get('Body')!)![1]!;
    const login = await as(h()).post('/api/users/auth/login/sms', { realm_id: realm, mobile, code, serialNo: res.body.data.serialNo });
    expect(login.status).toBe(200);
  });
});
