/**
 * Registration by email (activation, 24 h) and by SMS code; 1205 and its per-IP limit
 * (A-34); no half-registered account after a fault mid-write (A-45).
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { as, captcha, createRealm, lastCode, outboxFor, randomEmail, randomIp, randomMobile, signIn, smsCode } from '../../test/kit.js';

const linkCode = (body: string) => /register-result\?realm_id=([\w-]+)&code=([A-Za-z0-9]{24})/.exec(body);

describeBothDbs('registration', (h) => {
  it('by email with needActive: activation mail, 5007 until activated, link valid once', async () => {
    const email = randomEmail();
    const reg = await as(h()).post('/api/users/auth/register/email', { email, password: 'Str0ng-pass!', ...(await captcha(h())) });
    expect(reg.status).toBe(200);
    expect(reg.body.data).toMatchObject({ username: email, activationRequired: true });
    expect((await signIn(h(), { username: email, password: 'Str0ng-pass!' })).body).toMatchObject({ code: 5007, error: 'email_not_activated' });
    const [mail] = await outboxFor(h(), email);
    expect(mail!.subject).toBe('Activate your account at umbo');
    const m = linkCode(mail!.body)!;
    expect(mail!.body).toContain(`http://umbo.test/user/register-result?realm_id=master&code=${m[2]}`);
    const act = await as(h()).post('/api/users/auth/activate', { code: m[2] });
    expect(act).toEqual({ status: 200, body: { result: 'ok', code: 0, data: { username: email } } });
    expect((await as(h()).post('/api/users/auth/activate', { code: m[2] })).body.code).toBe(4006);
    expect((await signIn(h(), { username: email, password: 'Str0ng-pass!' })).status).toBe(200);
  });

  it('A-34 forty parallel resends for one address (in look-alike spellings) send exactly one mail', async () => {
    const email = randomEmail();
    await as(h()).post('/api/users/auth/register/email', { email, password: 'Str0ng-pass!', ...(await captcha(h())) });
    h().clock.advance(61_000);
    const spellings = [email, email.toUpperCase(), `\uFF55${email.slice(1)}`]; // FULLWIDTH u
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) =>
        as(h()).post('/api/users/auth/register/resend', { email: spellings[i % 3], ...(await captcha(h())) }, { ip: randomIp() }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code === 1006)).toHaveLength(39);
    expect(await outboxFor(h(), email)).toHaveLength(2);
  });

  it('A-34 resends the activation mail with a new link (the old one stops working); the same answer for unknown or active addresses; one a minute', async () => {
    const email = randomEmail();
    await as(h()).post('/api/users/auth/register/email', { email, password: 'Str0ng-pass!', ...(await captcha(h())) });
    const first = linkCode((await outboxFor(h(), email))[0]!.body)!;
    const accepted = { status: 200, body: { result: 'ok', code: 0, data: { accepted: true } } };
    const resend = async (address: string) => as(h()).post('/api/users/auth/register/resend', { email: address, ...(await captcha(h())) }, { ip: randomIp() });
    expect(await resend(email)).toEqual(accepted);
    const mails = await outboxFor(h(), email);
    expect(mails).toHaveLength(2);
    // (newest first, but both were written at the same instant of the fake clock)
    const codes = mails.map((m) => linkCode(m.body)![2]);
    const second = codes.find((c) => c !== first[2])!;
    expect(new Set(codes).size).toBe(2);
    expect((await as(h()).post('/api/users/auth/activate', { code: first[2] })).body.code).toBe(4006);
    // Within the minute: refused, and no third mail.
    expect((await resend(email)).body).toMatchObject({ code: 1006 });
    expect((await as(h()).post('/api/users/auth/activate', { code: second })).status).toBe(200);
    // Activated, or no such account: the same answer, and no mail.
    h().clock.advance(61_000);
    expect(await resend(email)).toEqual(accepted);
    const nobody = randomEmail();
    expect(await resend(nobody)).toEqual(accepted);
    expect(await outboxFor(h(), email)).toHaveLength(2);
    expect(await outboxFor(h(), nobody)).toEqual([]);
    expect((await as(h()).post('/api/users/auth/register/resend', { email: nobody })).body).toMatchObject({ code: 4005 });
  });

  it('A-34 the activation link expires after 24 h of the injected clock (4004)', async () => {
    const email = randomEmail();
    await as(h()).post('/api/users/auth/register/email', { email, password: 'Str0ng-pass!', ...(await captcha(h())) });
    const m = linkCode((await outboxFor(h(), email))[0]!.body)!;
    h().clock.advance(24 * 3600_000 + 1);
    expect((await as(h()).post('/api/users/auth/activate', { code: m[2] })).body).toMatchObject({ code: 4004 });
    expect((await as(h()).post('/api/users/auth/activate', { code: 'x'.repeat(24) })).body).toMatchObject({ code: 4006 });
    expect((await as(h()).post('/api/users/auth/activate', { code: 'short' })).body).toMatchObject({ code: 1009 });
  });

  it('A-34 an existing address or name is 1205, and attempts are limited per IP', async () => {
    const email = randomEmail();
    expect((await as(h()).post('/api/users/auth/register/email', { email, password: 'Str0ng-pass!', ...(await captcha(h())) })).status).toBe(200);
    const dup = await as(h()).post('/api/users/auth/register/email', { email: email.toUpperCase(), password: 'Str0ng-pass!', ...(await captcha(h())) });
    expect(dup).toEqual({ status: 409, body: { result: 'fail', code: 1205, errno: 1205, error: 'user_exists', msg: 'User already exists' } });
    const name = await as(h()).post('/api/users/auth/register/email', {
      email: randomEmail(),
      username: 'admin',
      password: 'Str0ng-pass!',
      ...(await captcha(h())),
    });
    expect(name.body.code).toBe(1205);
    const ip = randomIp();
    const codes: number[] = [];
    for (let i = 0; i < 21; i++)
      codes.push((await as(h()).post('/api/users/auth/register/email', { email, password: 'Str0ng-pass!', ...(await captcha(h())) }, { ip })).body.code);
    expect(codes.slice(0, 20).every((c) => c === 1205)).toBe(true);
    expect(codes[20]).toBe(1006);
  });

  it('A-34 ten parallel registrations of a@x.test / A@X.test make exactly one account', async () => {
    const realm = await createRealm(h());
    const bodies = await Promise.all(
      Array.from({ length: 10 }, async (_, i) =>
        as(h()).post('/api/users/auth/register/email', {
          realm_id: realm,
          email: i % 2 ? 'A@X.test' : 'a@x.test',
          password: 'Str0ng-pass!',
          ...(await captcha(h(), realm)),
        }),
      ),
    );
    expect(bodies.filter((b) => b.status === 200)).toHaveLength(1);
    expect(bodies.filter((b) => b.body.code === 1205)).toHaveLength(9);
    expect(await h().ctx.repos.accounts.countAccounts(realm)).toBe(1);
  });

  it('A-45 a fault between the account and its activation code leaves no account', async () => {
    const db = h().dbh.db;
    if (h().dialect === 'sqlite') {
      await sql`create trigger fault_a45 before insert on mail_link_codes begin select raise(abort, 'injected fault'); end`.execute(db);
    } else {
      await sql`create function fault_a45() returns trigger language plpgsql as $$ begin raise exception 'injected fault'; end $$`.execute(db);
      await sql`create trigger fault_a45 before insert on mail_link_codes for each row execute function fault_a45()`.execute(db);
    }
    const email = randomEmail();
    try {
      const res = await as(h()).post('/api/users/auth/register/email', { email, password: 'Str0ng-pass!', ...(await captcha(h())) });
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ code: 1500 });
    } finally {
      await sql`drop trigger fault_a45${h().dialect === 'postgres' ? sql` on mail_link_codes` : sql``}`.execute(db);
    }
    expect(await h().ctx.repos.accounts.findAccountByEmail('master', email)).toBeUndefined();
    expect(await outboxFor(h(), email)).toEqual([]);
    // and the address is still free
    expect((await as(h()).post('/api/users/auth/register/email', { email, password: 'Str0ng-pass!', ...(await captcha(h())) })).status).toBe(200);
  });

  it('without needActive the account works at once', async () => {
    const realm = await createRealm(h(), { needActive: false });
    const email = randomEmail();
    const reg = await as(h()).post('/api/users/auth/register/email', {
      realm_id: realm,
      email,
      username: 'free_user',
      password: 'Str0ng-pass!',
      ...(await captcha(h(), realm)),
    });
    expect(reg.body.data).toMatchObject({ username: 'free_user', activationRequired: false });
    expect(await outboxFor(h(), email)).toEqual([]);
    expect((await signIn(h(), { username: 'free_user', password: 'Str0ng-pass!', realmId: realm })).status).toBe(200);
  });

  it('by SMS code: code → account; taken number → 1205 already at the code; methods off → 1014', async () => {
    const mobile = randomMobile();
    const { serialNo } = await smsCode(h(), mobile, 'register');
    const code = await lastCode(h(), `+86${mobile}`);
    const short = await as(h()).post('/api/users/auth/register/sms', { mobile, code, serialNo, password: '12345' });
    expect(short.body).toMatchObject({ code: 1009 });
    const reg = await as(h()).post('/api/users/auth/register/sms', { mobile, code, serialNo, password: 'Str0ng-pass!' });
    expect(reg.body.data).toMatchObject({ username: `+86${mobile}`, activationRequired: false });
    expect((await signIn(h(), { username: `+86${mobile}`, password: 'Str0ng-pass!' })).status).toBe(200);
    h().clock.advance(60_000);
    const again = await as(h()).post('/api/users/auth/sms-code', { mobile, purpose: 'register', ...(await captcha(h())) });
    expect(again.body).toMatchObject({ code: 1205 });
    const realm = await createRealm(h(), { backend_support_regist_method: ['sms'] });
    expect(
      (
        await as(h()).post('/api/users/auth/register/email', {
          realm_id: realm,
          email: randomEmail(),
          password: 'Str0ng-pass!',
          ...(await captcha(h(), realm)),
        })
      ).body.code,
    ).toBe(1014);
  });
});
