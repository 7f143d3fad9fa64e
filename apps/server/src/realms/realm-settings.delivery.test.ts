/**
 * What PATCH stores is what the notify code opens: after setting a realm's mail server and
 * SMS webhook through the API, a sign-in code goes out through them with the secrets given
 * (an SMTP AUTH the server checks, a webhook body signed with the webhook secret).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, captcha, createPerson, createRealm, randomEmail, randomMobile, settled } from '../test/kit.js';

// The receivers below listen on 127.0.0.1: reachable only because the operator allows it.
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';

const SMTP_PASSWORD = 'smtp-Pw-7781';
const auths: { username: string; password: string }[] = [];
const mails: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onAuth(auth, _session, cb) {
    auths.push({ username: auth.username ?? '', password: auth.password ?? '' });
    if (auth.password === SMTP_PASSWORD) cb(null, { user: auth.username });
    else cb(new Error('Invalid username or password'));
  },
  onData(stream, session, cb) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
      cb();
    });
  },
});
let smtpPort = 0;

const hooks: { signature: string; body: string }[] = [];
const hookServer = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    hooks.push({ signature: String(req.headers['x-umbo-signature'] ?? ''), body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(204).end();
  });
});
let hookUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpPort = (smtp.server.address() as { port: number }).port;
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', () => resolve()));
  hookUrl = `http://127.0.0.1:${(hookServer.address() as { port: number }).port}/sms`;
});
afterAll(async () => {
  delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => hookServer.close(() => resolve()));
});

describeBothDbs('realm settings: secrets set by PATCH reach the providers', (h) => {
  const insertPerson = (realmId: string, contact: { email?: string; phone?: string }) => createPerson(h(), { realmId, password: null, ...contact });

  it('mail: the SMTP server receives the password set through the API (sealed at rest, opened to send)', async () => {
    const realm = await createRealm(h());
    const token = await h().login();
    const email = { host: '127.0.0.1', port: smtpPort, secure: false, user: 'mailer', password: SMTP_PASSWORD, from: 'umbo <no-reply@umbo.test>' };
    expect((await as(h(), token).patch(`/api/users/realms/${realm}/settings`, { email })).status).toBe(200);
    // a later PATCH without the password keeps it
    const { password: _omit, ...again } = email;
    expect((await as(h(), token).patch(`/api/users/realms/${realm}/settings`, { email: again })).body.data.email.hasPassword).toBe(true);

    const to = randomEmail();
    await insertPerson(realm, { email: to });
    auths.length = 0;
    const res = await as(h()).post('/api/users/auth/email-code', { realm_id: realm, email: to, purpose: 'login', ...(await captcha(h(), realm)) });
    expect(res.status).toBe(200);
    await settled(h());
    expect(auths).toEqual([{ username: 'mailer', password: SMTP_PASSWORD }]);
    const got = mails.find((m) => m.to.includes(to));
    expect(got?.raw).toMatch(/\b\d{6}\b/);
  });

  it('SMS: the webhook body is signed with the secret set through the API', async () => {
    const realm = await createRealm(h());
    const token = await h().login();
    const patch = await as(h(), token).patch(`/api/users/realms/${realm}/settings`, { sms: { provider: 'webhook', url: hookUrl, secret: 'hook-Secret-42' } });
    expect(patch.body.data.sms).toEqual({ provider: 'webhook', url: hookUrl, secret: '', hasSecret: true });

    const mobile = randomMobile();
    await insertPerson(realm, { phone: `+86${mobile}` });
    hooks.length = 0;
    const res = await as(h()).post('/api/users/auth/sms-code', { realm_id: realm, mobile, purpose: 'login', ...(await captcha(h(), realm)) });
    expect(res.status).toBe(200);
    await settled(h());
    expect(hooks).toHaveLength(1);
    const hit = hooks[0]!;
    expect(hit.signature).toBe(`sha256=${crypto.createHmac('sha256', 'hook-Secret-42').update(hit.body).digest('hex')}`);
    expect(JSON.parse(hit.body)).toMatchObject({ realmId: realm, to: `+86${mobile}`, purpose: 'login' });
  });
});
