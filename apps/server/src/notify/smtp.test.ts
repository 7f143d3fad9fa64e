/**
 * A real SMTP transaction (issue 3): smtp-server on loopback receives the activation and
 * reset mails the server sends through a realm's email config; the test reads the received
 * message, follows the link / types the code, and signs in. The global SMTP_URL path and
 * the private-address refusal for realm SMTP hosts are checked too.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { as, captcha, createRealm, randomEmail, settled, signIn } from '../test/kit.js';
import { sendViaRealmSmtp, sendViaSmtpUrl } from './mailer.js';
import { startSmtpSink } from './testing/smtp-sink.js';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
// The realm's SMTP host below is 127.0.0.1: allowed only because the operator says so.
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
  await sink.close();
});

describeBothDbs('mail over SMTP', (h) => {
  const mailRealm = async (patch = {}) =>
    createRealm(h(), { email: { host: '127.0.0.1', port: sink.port, secure: false, from: 'Umbo <no-reply@umbo.test>' }, ...patch });

  it('registers, receives the activation mail over SMTP, follows its link, signs in', async () => {
    const realm = await mailRealm();
    const email = randomEmail();
    const reg = await as(h()).post('/api/users/auth/register/email', {
      realm_id: realm,
      email,
      password: 'Str0ng-pass!',
      lang: 'fr',
      ...(await captcha(h(), realm)),
    });
    expect(reg.status).toBe(200);
    await settled(h());
    const mail = await sink.next(email);
    expect(mail.from).toBe('no-reply@umbo.test');
    expect(mail.subject).toBe('Activez votre compte sur umbo');
    const link = /http:\/\/umbo\.test\/user\/register-result\?[^\s]+/.exec(mail.text)![0];
    expect(mail.html).toContain(link.replace(/&/g, '&#38;'));
    const url = new URL(link);
    expect(url.searchParams.get('realm_id')).toBe(realm);
    const act = await as(h()).post('/api/users/auth/activate', { realm_id: realm, code: url.searchParams.get('code') });
    expect(act.body).toEqual({ result: 'ok', code: 0, data: { username: email } });
    expect((await signIn(h(), { username: email, password: 'Str0ng-pass!', realmId: realm })).status).toBe(200);
  });

  it("uses the realm's activeEmailTpl / resetEmailTpl, and resets with the code read from the mail", async () => {
    const realm = await mailRealm({
      activeEmailTpl: 'Welcome {{username}}! Confirm: {{link}}',
      resetEmailTpl: 'Code for {{username}}: {{code}} (or {{link}}), {{minutes}} min',
    });
    const email = randomEmail();
    await as(h()).post('/api/users/auth/register/email', { realm_id: realm, email, password: 'Str0ng-pass!', ...(await captcha(h(), realm)) });
    await settled(h());
    const welcome = await sink.next(email);
    expect(welcome.text).toMatch(new RegExp(`^Welcome ${email}! Confirm: http://umbo\\.test/user/register-result\\?realm_id=${realm}&code=[A-Za-z0-9]{24}\\n`));
    const session = await as(h()).post('/api/users/auth/retrieve/email', { realm_id: realm, email, ...(await captcha(h(), realm)) });
    expect(session.status).toBe(200);
    await settled(h());
    const reset = await sink.next(email, (m) => m.text.startsWith('Code for'));
    const code = /Code for [^:]+: ([A-Za-z0-9]{24}) \(or http:\/\/umbo\.test\/reset\?realm_id=[\w]+&code=\1\), 60 min/.exec(reset.text)![1]!;
    expect((await as(h()).post('/api/users/auth/reset', { realm_id: realm, code, password: 'N3w-password' })).status).toBe(200);
    expect((await signIn(h(), { username: email, password: 'N3w-password', realmId: realm })).status).toBe(200);
  });
});

it('the global SMTP_URL sends; a realm SMTP host on a private address is refused unless allowed (A-37)', async () => {
  await sendViaSmtpUrl(`smtp://127.0.0.1:${sink.port}`, 'umbo <ops@umbo.test>', {
    to: 'ops@example.test',
    subject: 'Grüße',
    text: 'Hallo ✓',
    html: '<p>Hallo ✓</p>',
  });
  const got = await sink.next('ops@example.test');
  expect(got).toMatchObject({ from: 'ops@umbo.test', subject: 'Grüße', text: 'Hallo ✓' });
  const cfg = { host: '127.0.0.1', port: sink.port, secure: false, from: 'x@umbo.test' };
  await expect(sendViaRealmSmtp(cfg, undefined, false, { to: 'a@example.test', subject: 's', text: 't', html: 'h' })).rejects.toThrow(/refused/);
});
