/** GET /api/users/outbox (issue 3): master-realm administrators read what the outbox kept. */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { ADMIN, as, captcha, createPerson, issueSession, randomMobile, settled, tokenFor } from '../test/kit.js';

describeBothDbs('outbox', (h) => {
  it('lists SMS and mail newest first, decrypted, filtered and paged; stores them encrypted', async () => {
    const mobile = randomMobile();
    await createPerson(h(), { phone: `+86${mobile}`, password: null });
    await as(h()).post('/api/users/auth/sms-code', { mobile, purpose: 'login', ...(await captcha(h())) });
    await settled(h());
    const admin = await tokenFor(h(), ADMIN);
    const res = await as(h(), admin).get(`/api/users/outbox?channel=sms&recipient=%2B86${mobile}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.total).toBe(1);
    expect(data.items[0]).toMatchObject({ realmId: 'master', channel: 'sms', recipient: `+86${mobile}`, subject: '' });
    expect(data.items[0].body).toMatch(/^\[master\] Your verification code is \d{6}, valid for 5 minutes/);
    const [stored] = await h().ctx.repos.outbox.listOutboxMessages({ recipient: `+86${mobile}`, limit: 1, offset: 0 });
    expect(stored!.body).toMatch(/^v1\./);
    const paged = await as(h(), admin).get('/api/users/outbox?limit=1&offset=0');
    expect(paged.body.data.items).toHaveLength(1);
    expect((await as(h(), admin).get('/api/users/outbox?limit=1000')).body).toMatchObject({ code: 1009 });
  });

  it('needs a session (401) and outbox.query in the master realm (403)', async () => {
    expect((await as(h()).get('/api/users/outbox')).status).toBe(401);
    const plain = await createPerson(h(), { password: null });
    const res = await as(h(), await issueSession(h(), plain)).get('/api/users/outbox');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'outbox', perm: 'query' } });
  });
});
