/**
 * The device authorization grant end to end through the real app (RFC 8628, issue 12), on
 * SQLite and PostgreSQL with the fake clock: the device_authorization answer, polling
 * (authorization_pending, slow_down, access_denied, expired_token), the user's approval through
 * the console API, one token answer per approval however many polls race for it, codes bound
 * to their client and their realm, and throttled user-code guessing (RFC 8628 §5.1).
 */
import { DEVICE_GRANT_TYPE } from '@umbo/contracts';
import { expect, it } from 'vitest';
import type { OAuthClient } from '../../clients/clients.repo.js';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { as, createPerson, createRealm, issueSession, type TestAccount } from '../../test/kit.js';
import { makeClient } from '../test/authorize.testkit.js';

const FORM = { headers: { 'content-type': 'application/x-www-form-urlencoded' } };
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;
const DEVICE_PATH = '/api/users/oauth/device';

const publicDeviceClient = (h: Harness, realmId: string, patch: Partial<OAuthClient> = {}) =>
  makeClient(h, realmId, { tokenEndpointAuthMethod: 'none', secretHash: null, grantTypes: [DEVICE_GRANT_TYPE, 'refresh_token'], ...patch });

const startDevice = (h: Harness, realmId: string, client: OAuthClient, extra: Record<string, string> = {}) =>
  as(h).post(`/realms/${realmId}/oauth/device_authorization`, form({ client_id: client.clientId, scope: 'openid profile', ...extra }), FORM);

const poll = (h: Harness, realmId: string, client: OAuthClient, deviceCode: string) =>
  as(h).post(`/realms/${realmId}/oauth/token`, form({ grant_type: DEVICE_GRANT_TYPE, device_code: deviceCode, client_id: client.clientId }), FORM);

const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** A realm, its public device client, a user of the realm with a console session, and a started device request. */
async function setUp(h: Harness) {
  const realm = await createRealm(h);
  const client = await publicDeviceClient(h, realm);
  const user = await createPerson(h, { realmId: realm });
  const token = await issueSession(h, user);
  const started = await startDevice(h, realm, client);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return { realm, client, user, token, deviceCode: started.body.device_code as string, userCode: started.body.user_code as string };
}

/** The next poll is admitted: the clock moves past the current interval. */
const waitInterval = (h: Harness, seconds = 5) => h.clock.advance(seconds * 1000);

async function decide(h: Harness, token: string, userCode: string, approve: boolean) {
  return as(h, token).post(DEVICE_PATH, { user_code: userCode, approve });
}

describeBothDbs('device authorization grant (RFC 8628)', (h) => {
  it('device_authorization answers RFC 8628 §3.2, no-store, and stores only hashes', async () => {
    const realm = await createRealm(h());
    const client = await publicDeviceClient(h(), realm);
    const res = await startDevice(h(), realm, client);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const b = res.body;
    expect(Object.keys(b).sort()).toEqual(['device_code', 'expires_in', 'interval', 'user_code', 'verification_uri', 'verification_uri_complete']);
    expect(b.device_code).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(b.user_code).toMatch(USER_CODE);
    // a realm other than master is named, so that the sign-in page signs in to it
    expect(b.verification_uri).toBe(`http://umbo.test/device?realm_id=${realm}`);
    expect(b.verification_uri_complete).toBe(`http://umbo.test/device?realm_id=${realm}&user_code=${b.user_code}`);
    expect(b).toMatchObject({ expires_in: 600, interval: 5 });
    const rows = await h().dbh.db.selectFrom('oauth_device_codes').selectAll().where('client_ref', '=', client.id).execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(b.device_code);
    expect(stored).not.toContain(b.user_code.replace('-', ''));
    expect(rows[0]).toMatchObject({ status: 'pending', scope: 'openid profile', interval_sec: 5 });
    const inMaster = await startDevice(h(), 'master', await publicDeviceClient(h(), 'master'));
    expect(inMaster.body.verification_uri).toBe('http://umbo.test/device');
    expect(inMaster.body.verification_uri_complete).toBe(`http://umbo.test/device?user_code=${inMaster.body.user_code}`);
  });

  it('device_authorization refusals: grant not registered, scope, confidential without secret, unknown realm, GET', async () => {
    const realm = await createRealm(h());
    const codeOnly = await makeClient(h(), realm, { tokenEndpointAuthMethod: 'none', secretHash: null });
    expect(await startDevice(h(), realm, codeOnly)).toMatchObject({ status: 400, body: { error: 'unauthorized_client' } });
    const narrow = await publicDeviceClient(h(), realm, { scopes: ['openid'] });
    expect(await startDevice(h(), realm, narrow, { scope: 'openid email' })).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(await startDevice(h(), realm, narrow, { scope: 'openid admin' })).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    // scope omitted (RFC 8628 §3.1 OPTIONAL): the client's registered scopes
    const dflt = await startDevice(h(), realm, narrow, { scope: '' });
    expect(dflt.status).toBe(200);
    const confidential = await makeClient(h(), realm, { grantTypes: [DEVICE_GRANT_TYPE] });
    const noSecret = await startDevice(h(), realm, confidential);
    expect(noSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const basic = `Basic ${Buffer.from(`${confidential.clientId}:secret`).toString('base64')}`;
    const withSecret = await as(h()).post(`/realms/${realm}/oauth/device_authorization`, form({ scope: 'openid' }), {
      headers: { ...FORM.headers, authorization: basic },
    });
    expect(withSecret.status, JSON.stringify(withSecret.body)).toBe(200);
    expect((await startDevice(h(), 'no-such-realm', narrow)).status).toBe(404);
    const get = await as(h()).get(`/realms/${realm}/oauth/device_authorization`);
    expect(get.status).toBe(405);
    expect(get.headers['cache-control']).toBe('no-store');
  });

  it('pending → slow_down when too fast (interval +5 s) → approved through the console → tokens once, then invalid_grant', async () => {
    const { realm, client, user, token, deviceCode, userCode } = await setUp(h());
    const signedInAt = h().clock.now();
    expect(await poll(h(), realm, client, deviceCode)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    // again at once: too fast; the interval becomes 10 s
    const fast = await poll(h(), realm, client, deviceCode);
    expect(fast).toMatchObject({ status: 400, body: { error: 'slow_down' } });
    expect(fast.headers['cache-control']).toBe('no-store');
    // at the old interval: too fast again (15 s now), remembered for every later poll
    waitInterval(h(), 5);
    expect((await poll(h(), realm, client, deviceCode)).body.error).toBe('slow_down');
    const row = await h().dbh.db.selectFrom('oauth_device_codes').select('interval_sec').where('client_ref', '=', client.id).executeTakeFirstOrThrow();
    expect(row.interval_sec).toBe(15);
    waitInterval(h(), 15);
    expect((await poll(h(), realm, client, deviceCode)).body.error).toBe('authorization_pending');

    // the user looks the code up (typed in lower case, without the dash) and approves it
    const look = await as(h(), token).get(`${DEVICE_PATH}?user_code=${userCode.replace('-', '').toLowerCase()}`);
    expect(look.status, JSON.stringify(look.body)).toBe(200);
    expect(look.body.data).toMatchObject({ userCode, clientId: client.clientId, clientName: client.name, realmId: realm, scopes: ['openid', 'profile'] });
    expect(await decide(h(), token, userCode, true)).toMatchObject({ status: 200, body: { data: { status: 'approved', clientName: client.name } } });
    // decided once: neither approved nor denied again
    expect((await decide(h(), token, userCode, false)).body.code).toBe(1092);

    waitInterval(h(), 15);
    const tokens = await poll(h(), realm, client, deviceCode);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.headers['cache-control']).toBe('no-store');
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'openid profile' });
    expect(typeof tokens.body.refresh_token).toBe('string');
    const at = payloadOf(tokens.body.access_token as string);
    expect(at).toMatchObject({ sub: user.id, client_id: client.clientId, auth_time: Math.floor(signedInAt / 1000) });
    expect(payloadOf(tokens.body.id_token as string)).toMatchObject({ sub: user.id, aud: client.clientId });
    const family = await h().dbh.db.selectFrom('oauth_families').selectAll().where('client_ref', '=', client.id).execute();
    expect(family).toMatchObject([{ account_id: user.id, grant_type: DEVICE_GRANT_TYPE, auth_time: signedInAt }]);

    waitInterval(h(), 15);
    expect(await poll(h(), realm, client, deviceCode)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // the approval is in the audit trail, without any code
    const events = await h().dbh.db.selectFrom('audit_events').selectAll().where('realm_id', '=', realm).where('action', 'like', 'oauth.device.%').execute();
    expect(events.map((e) => [e.action, e.actor_id, e.target_id])).toEqual([['oauth.device.approved', user.id, client.id]]);
    expect(JSON.stringify(events)).not.toContain(userCode.replace('-', ''));
    expect(JSON.stringify(events)).not.toContain(deviceCode);
  });

  it('denied → access_denied, and the denial is audited', async () => {
    const { realm, client, user, token, deviceCode, userCode } = await setUp(h());
    expect(await decide(h(), token, userCode, false)).toMatchObject({ status: 200, body: { data: { status: 'denied' } } });
    expect(await poll(h(), realm, client, deviceCode)).toMatchObject({ status: 400, body: { error: 'access_denied' } });
    waitInterval(h());
    expect((await poll(h(), realm, client, deviceCode)).body.error).toBe('access_denied');
    expect(await h().dbh.db.selectFrom('oauth_families').selectAll().where('client_ref', '=', client.id).execute()).toEqual([]);
    const events = await h()
      .dbh.db.selectFrom('audit_events')
      .select(['action', 'actor_id'])
      .where('realm_id', '=', realm)
      .where('action', 'like', 'oauth.device.%')
      .execute();
    expect(events).toEqual([{ action: 'oauth.device.denied', actor_id: user.id }]);
  });

  it('expiry (fake clock): the poll answers expired_token, the console 1091, an approval is not possible', async () => {
    const { realm, client, token, deviceCode, userCode } = await setUp(h());
    h().clock.advance(600_000);
    expect(await poll(h(), realm, client, deviceCode)).toMatchObject({ status: 400, body: { error: 'expired_token' } });
    expect((await as(h(), token).get(`${DEVICE_PATH}?user_code=${userCode}`)).body.code).toBe(1091);
    expect((await decide(h(), token, userCode, true)).body.code).toBe(1091);
    // approved a moment before expiry, polled after it: still expired_token, no tokens
    const late = await setUp(h());
    expect((await decide(h(), late.token, late.userCode, true)).status).toBe(200);
    h().clock.advance(600_000);
    expect((await poll(h(), late.realm, late.client, late.deviceCode)).body.error).toBe('expired_token');
  });

  it('A-07 for device codes: another client (same realm or not), or an unknown code → invalid_grant; the code stays usable', async () => {
    const { realm, client, token, deviceCode, userCode } = await setUp(h());
    const other = await publicDeviceClient(h(), realm);
    expect(await poll(h(), realm, other, deviceCode)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await poll(h(), realm, client, 'x'.repeat(43))).body.error).toBe('invalid_grant');
    const realmB = await createRealm(h());
    const sameIdElsewhere = await publicDeviceClient(h(), realmB, { clientId: client.clientId });
    expect((await poll(h(), realmB, sameIdElsewhere, deviceCode)).body.error).toBe('invalid_grant');
    expect((await decide(h(), token, userCode, true)).status).toBe(200);
    expect((await poll(h(), realm, client, deviceCode)).status).toBe(200);
  });

  it('a user code of another realm reads exactly like an unknown one, and cannot be approved', async () => {
    const { realm, client, deviceCode, userCode } = await setUp(h());
    const realmB = await createRealm(h());
    const outsider: TestAccount = await createPerson(h(), { realmId: realmB });
    const outsiderToken = await issueSession(h(), outsider);
    const foreign = await as(h(), outsiderToken).get(`${DEVICE_PATH}?user_code=${userCode}`);
    const unknown = await as(h(), outsiderToken).get(`${DEVICE_PATH}?user_code=BBBB-BBBB`);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual(unknown.body);
    expect(foreign.body.code).toBe(1090);
    expect((await decide(h(), outsiderToken, userCode, true)).body).toEqual(unknown.body);
    expect((await poll(h(), realm, client, deviceCode)).body.error).toBe('authorization_pending');
    // the master administrator is no exception
    const adminToken = await h().login();
    expect((await decide(h(), adminToken, userCode, true)).body.code).toBe(1090);
  });

  it('50 parallel polls after the approval: exactly one token answer, one family', async () => {
    const { realm, client, token, deviceCode, userCode } = await setUp(h());
    expect((await decide(h(), token, userCode, true)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 50 }, () => poll(h(), realm, client, deviceCode)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 400 && ['slow_down', 'invalid_grant'].includes(a.body.error as string))).toBe(
      true,
    );
    expect(await h().dbh.db.selectFrom('oauth_families').select('id').where('client_ref', '=', client.id).execute()).toHaveLength(1);
    // and again, spaced out: the approval is spent
    waitInterval(h(), 300);
    expect((await poll(h(), realm, client, deviceCode)).body.error).toBe('invalid_grant');
  });

  it('RFC 8628 §5.1: wrong user codes are throttled per account; a blocked user waits even with the right code', async () => {
    const { realm, client, token, deviceCode, userCode } = await setUp(h());
    const ip = '10.9.8.7';
    const wrong = ['BBBB-BBBB', 'CCCC-CCCC', 'DDDD-DDDD', 'FFFF-FFFF'];
    for (const w of wrong) expect((await as(h(), token).get(`${DEVICE_PATH}?user_code=${w}`, { ip })).body).toMatchObject({ code: 1090 });
    const blocked = await as(h(), token).get(`${DEVICE_PATH}?user_code=${userCode}`, { ip });
    expect(blocked.body).toMatchObject({ code: 1090, errData: { locked: true } });
    expect(blocked.headers['retry-after']).toBeDefined();
    // not even from another address: the count is the account's
    expect((await decide(h(), token, userCode, true)).body).toMatchObject({ code: 1090, errData: { locked: true } });
    // malformed input is no guess at a code: refused without counting (and without a lock notice)
    h().clock.advance(60_000);
    const malformed = await as(h(), token).get(`${DEVICE_PATH}?user_code=AEIO-UAEI`);
    expect(malformed.body.code).toBe(1090);
    expect(malformed.body.errData).toBeUndefined();
    expect((await decide(h(), token, userCode, true)).status).toBe(200);
    waitInterval(h());
    expect((await poll(h(), realm, client, deviceCode)).status).toBe(200);
  });

  it('a disabled user or client: no approval, no tokens', async () => {
    const a = await setUp(h());
    await h().dbh.db.updateTable('oauth_clients').set({ disabled: 1 }).where('id', '=', a.client.id).execute();
    expect((await as(h(), a.token).get(`${DEVICE_PATH}?user_code=${a.userCode}`)).body.code).toBe(1093);
    const b = await setUp(h());
    expect((await decide(h(), b.token, b.userCode, true)).status).toBe(200);
    await h().dbh.db.updateTable('accounts').set({ disabled: 1 }).where('id', '=', b.user.id).execute();
    expect((await poll(h(), b.realm, b.client, b.deviceCode)).body.error).toBe('invalid_grant');
  });

  it('the approval API needs a session', async () => {
    expect((await as(h()).get(`${DEVICE_PATH}?user_code=BBBB-BBBB`)).status).toBe(401);
    expect((await as(h()).post(DEVICE_PATH, { user_code: 'BBBB-BBBB', approve: true })).status).toBe(401);
  });
});
