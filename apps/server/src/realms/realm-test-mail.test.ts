/**
 * "Send test mail" (issue 11) with a real SMTP peer: the realm's own server receives it; a
 * realm without one uses the outbox here (no SMTP_URL in tests); a server that cannot be
 * reached answers 1034 with a category, never the server's words; each try is audited.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtpSink } from '../notify/testing/smtp-sink.js';
import { describeBothDbs } from '../test/harness.js';
import { as, outboxFor, randomEmail } from '../test/kit.js';
import { apiRealm, auditRows, holder, settingsUrl } from './realms.testkit.js';

// The sink listens on 127.0.0.1: reachable only because the operator allows it.
process.env.NOTIFY_ALLOW_PRIVATE_NETWORK = 'true';
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;
  await sink.close();
});

describeBothDbs('realm test mail', (h) => {
  const testMail = (token: string, realm: string, to: string) => as(h(), token).post(`${settingsUrl(realm)}/test-mail`, { to }, { lang: 'de' });

  it("goes through the realm's own SMTP server, in the caller's language", async () => {
    const token = await h().login();
    const realm = await apiRealm(h(), token, {
      settings: { email: { host: '127.0.0.1', port: sink.port, secure: false, from: 'Umbo <no-reply@example.com>' } },
    });
    const to = randomEmail();
    const res = await testMail(token, realm, to);
    expect(res.body).toEqual({ result: 'ok', code: 0, data: { via: 'realm' } });
    const mail = await sink.next(to);
    expect(mail.from).toBe('no-reply@example.com');
    expect(mail.text).toContain(realm);
    expect(mail.subject).toMatch(/Test/i);
    const [event] = (await auditRows(h(), realm)).filter((e) => e.action === 'realm.test_mail');
    expect(event).toMatchObject({ result: 'ok' });
    expect(event!.detail).not.toContain(to);
  });

  it('a realm without a mail server uses the outbox (no SMTP_URL configured)', async () => {
    const token = await h().login();
    const realm = await apiRealm(h(), token);
    const to = randomEmail();
    expect((await testMail(token, realm, to)).body.data).toEqual({ via: 'outbox' });
    const [kept] = await outboxFor(h(), to);
    expect(kept?.body).toContain(realm);
  });

  it('an unreachable server answers 1034 with a category; the failure is audited; a viewer may not send', async () => {
    const token = await h().login();
    const realm = await apiRealm(h(), token, { settings: { email: { host: 'no-such-host.invalid', port: 25, secure: false, from: 'x@example.com' } } });
    const res = await testMail(token, realm, randomEmail());
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 1034, errData: { via: 'realm', reason: 'host_not_found' } });
    expect((await auditRows(h(), realm)).filter((e) => e.action === 'realm.test_mail').map((e) => e.result)).toEqual(['fail']);
    const { token: viewer } = await holder(h(), realm, 'realm-viewer');
    expect((await testMail(viewer, realm, randomEmail())).body.code).toBe(1003);
    const bad = await testMail(token, realm, 'not-an-address');
    expect(bad.body).toMatchObject({ code: 1009, errData: { field: 'to' } });
  });
});
