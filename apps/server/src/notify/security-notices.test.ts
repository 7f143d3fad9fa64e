/**
 * Security notices (ASVS 5.0 V6.3.7; ): a changed or reset password, OTP turned on
 * or off, and a bound, changed or removed email or phone are told to the owner — by mail
 * and/or SMS as its preferences say, in its language, at the address it had before the
 * change — and never carry a secret. Messages arrive through the outbox provider. Both DBs.
 */
import { expect, it } from 'vitest';
import type { Locale } from '@umbo/contracts';
import { t } from '../platform/i18n.js';
import { describeBothDbs } from '../test/harness.js';
import {
  as,
  captcha,
  codeAt,
  createPerson,
  lastCode,
  outboxFor,
  randomEmail,
  randomMobile,
  smsCode,
  toNextStep,
  tokenFor,
  type OutboxMessage,
} from '../test/kit.js';
import { noticeTime, securityNoticeMail, type SecurityEvent } from './templates.js';

const NEW_PASSWORD = 'Quartz-Zebra-82';

it('the notice mail escapes what it shows in HTML', () => {
  const mail = securityNoticeMail('a@example.test', {
    locale: 'en',
    site: 'umbo',
    realm: 'master',
    username: '<img src=x onerror=alert(1)>',
    event: 'password_changed',
    at: 0,
    ip: '10.0.0.1',
  });
  expect(mail.html).not.toContain('<img');
  expect(mail.html).toContain('&#60;img src=x onerror=alert(1)&#62;');
});

describeBothDbs('security notices', (h) => {
  const site = () => h().ctx.config.siteTitle;
  const event = (locale: Locale, e: SecurityEvent, ip: string) =>
    t(locale, `notify.event_${e}`, { site: site(), time: noticeTime(locale, h().clock.now()), ip });
  const isNotice = (m: OutboxMessage, locale: Locale = 'en') =>
    m.channel === 'mail' ? m.subject === t(locale, 'notify.security_subject', { site: site() }) : m.body.includes(t(locale, 'notify.security_advice'));
  const noticesTo = async (to: string, locale: Locale = 'en') => (await outboxFor(h(), to)).filter((m) => isNotice(m, locale));

  /** No password, code, token or recovery code; no 6-digit run at all (a code would be one). */
  function expectNoSecret(m: OutboxMessage, secrets: string[]): void {
    for (const s of secrets) expect(`${m.subject}\n${m.body}`).not.toContain(s);
    expect(m.body).not.toMatch(/\b\d{6}\b/);
  }

  async function person(opts: Parameters<typeof createPerson>[1] = {}) {
    const a = await createPerson(h(), opts);
    return { a, token: await tokenFor(h(), a) };
  }
  const changePassword = (token: string, oldPassword: string, newPassword: string, extra: { ip?: string; lang?: string } = {}) =>
    as(h(), token).post('/api/users/account/password', { oldPassword, newPassword }, extra);
  const prefs = (token: string, payload: object) => as(h(), token).patch('/api/users/account/settings', payload);

  it("V6.3.7 a password change mails the account's email in the language it chose, with time and IP, no secret", async () => {
    const email = randomEmail();
    const { a, token } = await person({ email });
    await prefs(token, { language: 'de' });
    expect((await changePassword(token, a.password, NEW_PASSWORD, { ip: '10.20.30.40', lang: 'fr' })).status).toBe(200);
    const [mail, ...others] = await outboxFor(h(), email);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({ channel: 'mail', recipient: email, subject: `Sicherheitshinweis zu Ihrem Konto bei ${site()}` });
    expect(mail!.body).toContain(`Hallo ${a.username},\n\n${event('de', 'password_changed', '10.20.30.40')}\n\n${t('de', 'notify.security_advice')}`);
    expectNoSecret(mail!, [a.password, NEW_PASSWORD, token]);
  });

  it('V6.3.7 with securityEmail off no mail is sent, and the change still succeeds', async () => {
    const email = randomEmail();
    const { a, token } = await person({ email });
    expect((await prefs(token, { notifications: { securityEmail: false } })).status).toBe(200);
    expect((await changePassword(token, a.password, NEW_PASSWORD)).status).toBe(200);
    expect(await outboxFor(h(), email)).toEqual([]);
  });

  it('V6.3.7 securitySms on texts the phone; without a chosen language both follow the request', async () => {
    const email = randomEmail();
    const phone = `+86${randomMobile()}`;
    const { a, token } = await person({ email, phone });
    await prefs(token, { notifications: { securitySms: true } });
    // the default language is shown, but it was not chosen
    expect((await as(h(), token).get('/api/users/account/settings')).body.data.language).toBe('zh-CN');
    expect((await changePassword(token, a.password, NEW_PASSWORD, { ip: '10.9.8.7', lang: 'fr' })).status).toBe(200);
    const [sms, ...moreSms] = await outboxFor(h(), phone);
    expect(moreSms).toEqual([]);
    expect(sms).toMatchObject({ channel: 'sms', subject: '' });
    expect(sms!.body).toBe(
      t('fr', 'notify.sms_security', { realm: a.realmId, event: event('fr', 'password_changed', '10.9.8.7'), advice: t('fr', 'notify.security_advice') }),
    );
    expectNoSecret(sms!, [a.password, NEW_PASSWORD, token]);
    expect(await noticesTo(email, 'fr')).toHaveLength(1);
  });

  it('A-36 an email change notifies the OLD address; removing it notifies the removed one', async () => {
    const old = randomEmail();
    const { a, token } = await person({ email: old });
    const next = randomEmail();
    const sent = await as(h(), token).post('/api/users/account/binding/code', { channel: 'email', email: next, password: a.password });
    const code = await lastCode(h(), next);
    const bound = await as(h(), token).post(
      '/api/users/account/binding',
      { channel: 'email', email: next, serialNo: sent.body.data.serialNo, code },
      { ip: '10.1.1.1' },
    );
    expect(bound.status).toBe(200);
    const [notice, ...rest] = await outboxFor(h(), old);
    expect(rest).toEqual([]);
    expect(notice!.body).toContain(event('en', 'email_changed', '10.1.1.1'));
    expectNoSecret(notice!, [code, a.password, token]);
    // the new address got its code and nothing else
    expect(await noticesTo(next)).toEqual([]);

    expect((await as(h(), token).delete('/api/users/account/binding', { channel: 'email', password: a.password }, { ip: '10.1.1.2' })).status).toBe(200);
    const [removed] = await noticesTo(next);
    expect(removed!.body).toContain(event('en', 'email_unbound', '10.1.1.2'));
    expect(await outboxFor(h(), old)).toHaveLength(1);
  });

  it('A-36 a phone change texts the OLD number when securitySms is on, and mails the email', async () => {
    const email = randomEmail();
    const old = `+86${randomMobile()}`;
    const { a, token } = await person({ email, phone: old });
    await prefs(token, { language: 'en', notifications: { securitySms: true } });
    const mobile = randomMobile();
    const sent = await as(h(), token).post('/api/users/account/binding/code', { channel: 'sms', mobile, password: a.password });
    const code = await lastCode(h(), `+86${mobile}`);
    expect(
      (await as(h(), token).post('/api/users/account/binding', { channel: 'sms', mobile, serialNo: sent.body.data.serialNo, code }, { ip: '10.1.1.3' })).status,
    ).toBe(200);
    const [sms] = await outboxFor(h(), old);
    expect(sms!.body).toContain(event('en', 'phone_changed', '10.1.1.3'));
    expectNoSecret(sms!, [code]);
    expect(await noticesTo(`+86${mobile}`)).toEqual([]);
    expect((await noticesTo(email))[0]!.body).toContain(event('en', 'phone_changed', '10.1.1.3'));
  });

  it('A-35 a reset by mail link is followed by a notice without the reset code or the new password', async () => {
    const email = randomEmail();
    const { a } = await person({ email });
    await as(h()).post('/api/users/auth/retrieve/email', { email, ...(await captcha(h())) });
    const resetCode = /&code=([A-Za-z0-9]{24})/.exec((await outboxFor(h(), email))[0]!.body)![1]!;
    const reset = await as(h()).post('/api/users/auth/reset', { code: resetCode, password: NEW_PASSWORD }, { ip: '10.5.5.5' });
    expect(reset.status).toBe(200);
    // both were written at the same fake-clock time: told apart by subject, not by order
    const [notice, ...others] = await noticesTo(email);
    expect(others).toEqual([]);
    expect(notice!.body).toContain(event('en', 'password_reset', '10.5.5.5'));
    expectNoSecret(notice!, [resetCode, NEW_PASSWORD, a.password]);
  });

  it('A-35 a reset by SMS code texts the phone (securitySms on) without the code or the new password', async () => {
    const mobile = randomMobile();
    const phone = `+86${mobile}`;
    const { token } = await person({ phone });
    await prefs(token, { language: 'en', notifications: { securitySms: true } });
    const { serialNo } = await smsCode(h(), mobile, 'retrieve');
    const code = await lastCode(h(), phone);
    expect((await as(h()).post('/api/users/auth/retrieve/sms', { mobile, code, serialNo, password: NEW_PASSWORD }, { ip: '10.6.6.6' })).status).toBe(200);
    const [notice, ...others] = await noticesTo(phone);
    expect(others).toEqual([]);
    expect(notice!.body).toContain(event('en', 'password_reset', '10.6.6.6'));
    expectNoSecret(notice!, [code, NEW_PASSWORD]);
  });

  it('A-32 turning OTP on and off notifies, without the secret, its codes or the recovery codes', async () => {
    const email = randomEmail();
    const { a, token } = await person({ email });
    const setup = await as(h(), token).post('/api/users/account/otp/setup', { password: a.password });
    const secret = setup.body.data.secret as string;
    const codes = [codeAt(h(), secret, -1), codeAt(h(), secret)];
    const enabled = await as(h(), token).post('/api/users/account/otp/enable', { firstCode: codes[0], secondCode: codes[1] }, { ip: '10.7.7.6' });
    expect(enabled.status).toBe(200);
    const onText = event('en', 'otp_enabled', '10.7.7.6');
    // the enabling codes spent this step and the next (otp.service.ts), so two steps on
    toNextStep(h());
    toNextStep(h());
    codes.push(codeAt(h(), secret, -1), codeAt(h(), secret));
    expect((await as(h(), token).post('/api/users/account/otp/disable', { firstCode: codes[2], secondCode: codes[3] }, { ip: '10.7.7.7' })).status).toBe(200);
    // Delivery is deferred, so outbox order may not follow the events: found by text.
    const all = await outboxFor(h(), email);
    expect(all).toHaveLength(2);
    expect(all.filter((m) => m.body.includes(onText))).toHaveLength(1);
    expect(all.filter((m) => m.body.includes(event('en', 'otp_disabled', '10.7.7.7')))).toHaveLength(1);
    for (const m of all) expectNoSecret(m, [secret, ...codes, a.password, ...(enabled.body.data.recoveryCodes as string[])]);
  });
});
