/** GET /api/users/outbox (issue 3): master-realm administrators read what the outbox kept. */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { newId } from '../platform/crypto.js';
import { captcha, post, randomMobile } from '../auth/flows/testing/flows-helpers.js';

describeBothDbs('outbox', (h) => {
  const tokenFor = async (username: string) => {
    const account = await h().ctx.repos.accounts.findAccountByUsername('master', username);
    return (await h().ctx.services.sessions.issue(account!, { ip: '127.0.0.1', userAgent: 'test' })).token;
  };
  const get = (url: string, token?: string) =>
    h().app.inject({ method: 'GET', url, headers: { 'accept-language': 'en', ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  it('lists SMS and mail newest first, decrypted, filtered and paged; stores them encrypted', async () => {
    const mobile = randomMobile();
    const now = h().clock.now();
    await h().ctx.repos.accounts.insertAccount({
      id: newId(), realm_id: 'master', kind: 'person', owner_id: null, username: `o${mobile}`, username_norm: `o${mobile}`, email: null, email_norm: null,
      phone: `+86${mobile}`, password_hash: null, avatar: '', disabled: 0, activated: 1, force_password: 0, regist_area: '', last_login_at: null,
      last_login_area: '', created_at: now, updated_at: now,
    });
    await post(h(), '/api/users/auth/sms-code', { mobile, purpose: 'login', ...(await captcha(h())) });
    await h().ctx.services.flows.notify.settled();
    const admin = await tokenFor('admin');
    const res = await get(`/api/users/outbox?channel=sms&recipient=%2B86${mobile}`, admin);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.total).toBe(1);
    expect(data.items[0]).toMatchObject({ realmId: 'master', channel: 'sms', recipient: `+86${mobile}`, subject: '' });
    expect(data.items[0].body).toMatch(/^\[master\] Your verification code is \d{6}, valid for 5 minutes/);
    const rows = await h().dbh.db.selectFrom('outbox').select(['body']).where('recipient', '=', `+86${mobile}`).execute();
    expect(rows[0]!.body).toMatch(/^v1\./);
    const paged = await get('/api/users/outbox?limit=1&offset=0', admin);
    expect(paged.json().data.items).toHaveLength(1);
    expect((await get('/api/users/outbox?limit=1000', admin)).json()).toMatchObject({ code: 1009 });
  });

  it('needs a session (401) and outbox.query in the master realm (403)', async () => {
    expect((await get('/api/users/outbox')).statusCode).toBe(401);
    const now = h().clock.now();
    const id = newId();
    await h().ctx.repos.accounts.insertAccount({
      id, realm_id: 'master', kind: 'person', owner_id: null, username: `plain${id.slice(0, 6)}`, username_norm: `plain${id.slice(0, 6)}`, email: null, email_norm: null,
      phone: null, password_hash: null, avatar: '', disabled: 0, activated: 1, force_password: 0, regist_area: '', last_login_at: null,
      last_login_area: '', created_at: now, updated_at: now,
    });
    const res = await get('/api/users/outbox', await tokenFor(`plain${id.slice(0, 6)}`));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 1003, errData: { service: 'users', resource: 'outbox', perm: 'query' } });
  });
});
