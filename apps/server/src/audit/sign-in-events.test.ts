/**
 * Sign-in events in the audit trail (issue 11): each sign-in, failure, lock, one-time password
 * check, code sent, password change and reset, registration and activation is recorded with
 * realm, account (when the flow knew it), address, browser and result — and never a password,
 * a code, or a name typed in that matched no account.
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import {
  as,
  captcha,
  codeAt,
  createPerson,
  createRealm,
  enableOtp,
  lastCode,
  outboxFor,
  PASSWORD,
  randomEmail,
  randomIp,
  randomMobile,
  randomName,
  signIn,
  smsCode,
  tokenFor,
} from '../test/kit.js';
import { detailOf, eventsNamed, storedEvents, trailText } from './audit.testkit.js';

const UA = 'Mozilla/5.0 (audit test)';

describeBothDbs('audit: sign-in events', (h) => {
  const passwordForm = async (realmId: string, username: string, password: string, ip = randomIp(), extra: Record<string, string> = {}) =>
    as(h()).post(
      '/api/users/auth/login',
      { username, password, realm_id: realmId, ...(await captcha(h(), realmId)), ...extra },
      { ip, headers: { 'user-agent': UA } },
    );

  it('a password sign-in is recorded with realm, account, address, browser and result', async () => {
    const realm = await createRealm(h());
    const p = await createPerson(h(), { realmId: realm });
    const res = await passwordForm(realm, p.username, p.password, '10.1.2.3');
    expect(res.status).toBe(200);
    const [e] = await eventsNamed(h(), realm, 'signin.password');
    expect(e).toMatchObject({
      realm_id: realm,
      actor_id: p.id,
      actor_name: p.username,
      target_type: 'account',
      target_id: p.id,
      target_name: p.username,
      ip: '10.1.2.3',
      user_agent: UA,
      result: 'ok',
    });
    expect(detailOf(e!)).toEqual({ method: 'password' });
    expect(await trailText(h(), realm)).not.toContain(PASSWORD);
  });

  it('a wrong password names the account as target, never the password; an unknown name is not stored at all', async () => {
    const realm = await createRealm(h());
    const p = await createPerson(h(), { realmId: realm });
    const wrong = await passwordForm(realm, p.username, 'Wrong-Guess-123');
    expect(wrong.body.code).toBe(1010);
    const typedName = randomName('nobody');
    const unknown = await passwordForm(realm, typedName, 'Other-Guess-456');
    // The public answers are the same (DESIGN.md §5); only the trail tells them apart.
    expect(unknown.body).toEqual(wrong.body);

    const events = await eventsNamed(h(), realm, 'signin.password');
    expect(events).toHaveLength(2);
    const known = events.find((e) => e.target_id === p.id)!;
    expect(known).toMatchObject({ actor_id: null, target_name: p.username, result: 'fail', user_agent: UA });
    expect(detailOf(known)).toEqual({ method: 'password', reason: 'bad_credentials' });
    const anon = events.find((e) => e.target_id === null)!;
    expect(anon).toMatchObject({ actor_id: null, actor_name: '', target_name: '', result: 'fail' });
    expect(detailOf(anon)).toEqual({ method: 'password', reason: 'unknown_account' });
    const text = await trailText(h(), realm);
    for (const secret of ['Wrong-Guess-123', 'Other-Guess-456', typedName]) expect(text).not.toContain(secret);
  });

  it('the failure that starts a lock records signin.lock; tries while locked read "throttled"', async () => {
    const realm = await createRealm(h());
    const p = await createPerson(h(), { realmId: realm });
    // Default policy: 3 free failures, then growing delays, a 15-minute lock from the 10th.
    for (let i = 0; i < 10; i++) {
      await passwordForm(realm, p.username, `Wrong-${i}-xyz`);
      h().clock.advance(60_000);
    }
    const locks = await eventsNamed(h(), realm, 'signin.lock');
    expect(locks).toHaveLength(1);
    expect(locks[0]).toMatchObject({ target_id: p.id, result: 'ok' });
    expect(detailOf(locks[0]!)).toMatchObject({ method: 'password', retryAfter: 900 });
    const refused = await passwordForm(realm, p.username, p.password);
    expect(refused.body.errData).toMatchObject({ locked: true });
    const [last] = await eventsNamed(h(), realm, 'signin.password');
    expect(detailOf(last!)).toEqual({ method: 'password', reason: 'throttled' });
    expect(await eventsNamed(h(), realm, 'signin.lock')).toHaveLength(1);
  });

  it('SMS: code.sent with channel and purpose, then signin.sms; the code is not in the trail', async () => {
    const realm = await createRealm(h());
    const mobile = randomMobile();
    const p = await createPerson(h(), { realmId: realm, phone: `+86${mobile}` });
    const { serialNo } = await smsCode(h(), mobile, 'login', realm);
    const code = await lastCode(h(), `+86${mobile}`);
    const wrong = await as(h()).post('/api/users/auth/login/sms', { realm_id: realm, mobile, code: code === '000000' ? '111111' : '000000', serialNo });
    expect(wrong.body.code).toBe(4006);
    const ok = await as(h()).post('/api/users/auth/login/sms', { realm_id: realm, mobile, code, serialNo }, { headers: { 'user-agent': UA } });
    expect(ok.status).toBe(200);

    const [sent] = await eventsNamed(h(), realm, 'code.sent');
    expect(sent).toMatchObject({ target_id: p.id, result: 'ok' });
    expect(detailOf(sent!)).toEqual({ channel: 'sms', purpose: 'login', delivered: true });
    const sms = await eventsNamed(h(), realm, 'signin.sms');
    expect(sms.map((e) => e.result).sort()).toEqual(['fail', 'ok']);
    expect(sms.find((e) => e.result === 'ok')).toMatchObject({ actor_id: p.id, target_id: p.id, user_agent: UA });
    expect(detailOf(sms.find((e) => e.result === 'fail')!)).toEqual({ method: 'sms', reason: 'code' });
    const text = await trailText(h(), realm);
    expect(text).not.toContain(code);
    expect(text).not.toContain(mobile);
  });

  it('a code for a number nobody has is recorded as not delivered, without the number', async () => {
    const realm = await createRealm(h());
    const mobile = randomMobile();
    await smsCode(h(), mobile, 'login', realm);
    const [sent] = await eventsNamed(h(), realm, 'code.sent');
    expect(sent).toMatchObject({ target_id: null, target_name: '' });
    expect(detailOf(sent!)).toEqual({ channel: 'sms', purpose: 'login', delivered: false });
    expect(await trailText(h(), realm)).not.toContain(mobile);
  });

  it('email code sign-in: signin.email ok', async () => {
    const realm = await createRealm(h());
    const email = randomEmail();
    const p = await createPerson(h(), { realmId: realm, email });
    const res = await as(h()).post('/api/users/auth/email-code', { realm_id: realm, email, purpose: 'login', ...(await captcha(h(), realm)) });
    const code = await lastCode(h(), email);
    const ok = await as(h()).post('/api/users/auth/login/email', { realm_id: realm, email, code, serialNo: res.body.data.serialNo });
    expect(ok.status).toBe(200);
    expect(await eventsNamed(h(), realm, 'signin.email')).toMatchObject([{ target_id: p.id, result: 'ok' }]);
    expect(detailOf((await eventsNamed(h(), realm, 'code.sent'))[0]!)).toEqual({ channel: 'email', purpose: 'login', delivered: true });
    expect(await trailText(h(), realm)).not.toContain(code);
  });

  it('one-time password: a right one is signin.otp ok, a wrong one signin.otp fail; neither stores the code', async () => {
    const realm = await createRealm(h());
    const p = await createPerson(h(), { realmId: realm });
    const token = await tokenFor(h(), p);
    const { secret } = await enableOtp(h(), token, p.password);
    const wrongCode = codeAt(h(), secret) === '000000' ? '111111' : '000000';
    const wrong = await passwordForm(realm, p.username, p.password, randomIp(), { otp: wrongCode });
    expect(wrong.body.code).toBe(1502);
    const right = codeAt(h(), secret);
    const ok = await passwordForm(realm, p.username, p.password, randomIp(), { otp: right });
    expect(ok.status).toBe(200);
    const otp = await eventsNamed(h(), realm, 'signin.otp');
    expect(otp.map((e) => e.result).sort()).toEqual(['fail', 'ok']);
    expect(otp.every((e) => e.target_id === p.id)).toBe(true);
    expect(detailOf(otp.find((e) => e.result === 'fail')!)).toEqual({ method: 'password', reason: 'otp_failed' });
    // The step that only asked for the code (1503) is no failure; the password sign-ins are one ok.
    const pw = await eventsNamed(h(), realm, 'signin.password');
    expect(pw.filter((e) => e.result === 'ok')).toHaveLength(2); // tokenFor + the OTP sign-in
    const text = await trailText(h(), realm);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(`"${right}"`);
  });

  it('password.changed (own account) is recorded in the change and holds neither password', async () => {
    const realm = await createRealm(h());
    const p = await createPerson(h(), { realmId: realm });
    const token = await tokenFor(h(), p);
    const res = await as(h(), token).post('/api/users/account/password', { oldPassword: p.password, newPassword: 'Brand-New-Pass-88' }, { ip: '10.9.8.7' });
    expect(res.status).toBe(200);
    const [e] = await eventsNamed(h(), realm, 'password.changed');
    expect(e).toMatchObject({ actor_id: p.id, target_id: p.id, ip: '10.9.8.7', result: 'ok' });
    const text = await trailText(h(), realm);
    expect(text).not.toContain('Brand-New-Pass-88');
    expect(text).not.toContain(p.password);
  });

  it('password.reset by SMS recovery', async () => {
    const realm = await createRealm(h());
    const mobile = randomMobile();
    const p = await createPerson(h(), { realmId: realm, phone: `+86${mobile}` });
    const { serialNo } = await smsCode(h(), mobile, 'retrieve', realm);
    const code = await lastCode(h(), `+86${mobile}`);
    const ok = await as(h()).post('/api/users/auth/retrieve/sms', { realm_id: realm, mobile, code, serialNo, password: 'Recovered-Pass-77' });
    expect(ok.status).toBe(200);
    const [e] = await eventsNamed(h(), realm, 'password.reset');
    expect(e).toMatchObject({ target_id: p.id, result: 'ok' });
    expect(detailOf(e!)).toEqual({ method: 'sms' });
    expect(detailOf((await eventsNamed(h(), realm, 'code.sent'))[0]!)).toMatchObject({ purpose: 'retrieve' });
    expect(await trailText(h(), realm)).not.toContain('Recovered-Pass-77');
  });

  it('registration by email and its activation', async () => {
    const realm = await createRealm(h());
    const email = randomEmail();
    const reg = await as(h()).post('/api/users/auth/register/email', { realm_id: realm, email, password: 'Str0ng-pass!', ...(await captcha(h(), realm)) });
    expect(reg.status).toBe(200);
    const id = reg.body.data.userId as string;
    const [r] = await eventsNamed(h(), realm, 'registration');
    expect(r).toMatchObject({ actor_id: id, target_id: id, result: 'ok' });
    expect(detailOf(r!)).toEqual({ method: 'email' });
    const [mail] = await outboxFor(h(), email);
    const code = /code=([A-Za-z0-9]{24})/.exec(mail!.body)![1]!;
    const activated = await h().app.inject({
      method: 'POST',
      url: '/api/users/auth/activate',
      payload: { realm_id: realm, code },
      headers: { 'user-agent': 'Activation-Browser/1.0' },
      remoteAddress: '203.0.113.9',
    });
    expect(activated.statusCode).toBe(200);
    // who followed the link, from where: the trail says it like any other sign-in event
    expect(await eventsNamed(h(), realm, 'activation')).toMatchObject([
      { target_id: id, result: 'ok', ip: '203.0.113.9', user_agent: 'Activation-Browser/1.0' },
    ]);
    // A second registration of the address fails (1205) and is recorded without it.
    const again = await as(h()).post('/api/users/auth/register/email', { realm_id: realm, email, password: 'Str0ng-pass!', ...(await captcha(h(), realm)) });
    expect(again.body.code).toBe(1205);
    const failed = (await eventsNamed(h(), realm, 'registration')).find((e) => e.result === 'fail')!;
    expect(detailOf(failed)).toEqual({ method: 'email', reason: 'user_exists' });
    const text = await trailText(h(), realm);
    expect(text).not.toContain('Str0ng-pass!');
    expect(text).not.toContain(code);
    expect((await storedEvents(h(), realm)).filter((e) => e.result === 'fail').every((e) => !JSON.stringify(e).includes(email))).toBe(true);
  });

  it('a sign-in in one realm is not in another realm’s trail', async () => {
    const a = await createRealm(h());
    const b = await createRealm(h());
    const p = await createPerson(h(), { realmId: a });
    expect((await signIn(h(), p)).status).toBe(200);
    expect(await eventsNamed(h(), a, 'signin.password')).toHaveLength(1);
    expect(await eventsNamed(h(), b, 'signin.password')).toHaveLength(0);
  });
});
