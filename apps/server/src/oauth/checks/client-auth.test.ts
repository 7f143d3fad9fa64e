/**
 * Client authentication at the token endpoint (RFC 6749 §2.3, RFC 7523; AS-13) and the client
 * credentials grant (A-17, AS-19, AS-20): Basic decoding, private_key_jwt with single-use jti,
 * throttling of failures, source ranges.
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { createPerson } from '../../test/kit.js';
import { signJwt } from '../jwt.js';
import { claimsOf, introspect, makeClient, postToken, serviceClient, userTokens } from '../test/token.testkit.js';

const CC = { grant_type: 'client_credentials' };

describeBothDbs('client authentication and client_credentials', (h) => {
  it('A-17 client_credentials: scope outside the allowlist → invalid_scope; no RT, no ID token; sub namespaced', async () => {
    const client = await serviceClient(h(), 'master');
    const outside = await postToken(h(), 'master', { ...CC, scope: 'profile phone' }, { client });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe('invalid_scope');
    expect((await postToken(h(), 'master', { ...CC, scope: 'openid' }, { client })).body.error).toBe('invalid_scope');
    const ok = await postToken(h(), 'master', { ...CC, scope: 'profile' }, { client });
    expect(ok.status).toBe(200);
    expect(ok.body.refresh_token).toBeUndefined();
    expect(ok.body.id_token).toBeUndefined();
    expect(ok.body.scope).toBe('profile');
    const at = claimsOf(ok.body.access_token);
    expect(at.sub).toBe(`client:${client.clientId}`);
    expect(at.gid).toBeUndefined();
    // no user id can take that shape (ids are letters and digits)
    const user = await createPerson(h());
    expect(user.id).toMatch(/^[a-z0-9]+$/);
    expect((await introspect(h(), client, ok.body.access_token)).body).toMatchObject({ active: true, sub: `client:${client.clientId}`, scope: 'profile' });
    // no scope asked: none granted
    expect((await postToken(h(), 'master', CC, { client })).body.scope).toBeUndefined();
    // no database row per token: no family, and the audit counts them (one event per flush)
    const families = await h().ctx.db.selectFrom('oauth_families').select('id').where('client_ref', '=', client.id).execute();
    expect(families).toHaveLength(0);
    const events = () => h().ctx.db.selectFrom('audit_events').select(['action', 'result', 'detail']).where('target_id', '=', client.id).execute();
    expect(await events()).toHaveLength(0);
    await h().ctx.services.oauthTokenEvents.flush();
    const written = await events();
    expect(written.find((e) => e.result === 'ok')).toMatchObject({ action: 'oauth.token.issued' });
    expect(JSON.parse(written.find((e) => e.result === 'ok')!.detail)).toMatchObject({ grantType: 'client_credentials', clientId: client.clientId, count: 2 });
    expect(JSON.parse(written.find((e) => e.result === 'fail')!.detail)).toMatchObject({ error: 'invalid_scope', count: 2 });
    for (const e of written) expect(e.detail).not.toContain(ok.body.access_token.split('.')[2]);
  });

  it('A-17 a disabled client → invalid_client; a client without the grant → unauthorized_client; a public client → unauthorized_client', async () => {
    const disabled = await serviceClient(h(), 'master', { disabled: true });
    const res = await postToken(h(), 'master', CC, { client: disabled });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    const codeOnly = await makeClient(h(), 'master');
    expect((await postToken(h(), 'master', CC, { client: codeOnly })).body.error).toBe('unauthorized_client');
    const pub = await makeClient(h(), 'master', { tokenEndpointAuthMethod: 'none', secretHash: null, grantTypes: ['client_credentials'] });
    expect((await postToken(h(), 'master', { ...CC, client_id: pub.clientId })).body.error).toBe('unauthorized_client');
  });

  it('source ranges: client_credentials only from an allowed address', async () => {
    const client = await serviceClient(h(), 'master', { sourceRanges: ['10.1.0.0/16', '192.168.7.9'] });
    expect((await postToken(h(), 'master', CC, { client, ip: '10.1.200.3' })).status).toBe(200);
    expect((await postToken(h(), 'master', CC, { client, ip: '192.168.7.9' })).status).toBe(200);
    const outside = await postToken(h(), 'master', CC, { client, ip: '10.2.0.1' });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe('unauthorized_client');
  });

  it('Basic credentials are form-urlencoded before base64 (RFC 6749 §2.3.1)', async () => {
    const secret = 'a b+c:%/é';
    const client = await serviceClient(h(), 'master', {
      clientId: `svc:${crypto.randomBytes(4).toString('hex')} x`,
      secretHash: h().ctx.secrets.hash('client-secret', secret),
    });
    const encoded = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
    const header = `Basic ${Buffer.from(`${encoded(client.clientId)}:${encoded(secret)}`).toString('base64')}`;
    expect((await postToken(h(), 'master', CC, { headers: { authorization: header } })).status).toBe(200);
    const raw = `Basic ${Buffer.from(`${client.clientId}:${secret.replace('+', '-')}`).toString('base64')}`;
    expect((await postToken(h(), 'master', CC, { headers: { authorization: raw } })).status).toBe(401);
  });

  it('AS-13 repeated failures block the client for a while, even with the right secret; the block ends', async () => {
    const client = await serviceClient(h(), 'master');
    for (let i = 0; i < 11; i++) expect((await postToken(h(), 'master', CC, { client, secret: `wrong${i}` })).status).toBe(401);
    const blocked = await postToken(h(), 'master', CC, { client });
    expect(blocked.status).toBe(401);
    expect(blocked.body.error).toBe('invalid_client');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    h().clock.advance(60_000);
    expect((await postToken(h(), 'master', CC, { client })).status).toBe(200);
    // another client is not affected
    expect((await postToken(h(), 'master', CC, { client: await serviceClient(h(), 'master') })).status).toBe(200);
  });

  it('private_key_jwt: a signed assertion authenticates once; a replayed jti, a wrong aud, another key → invalid_client', async () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...(publicKey.export({ format: 'jwk' }) as Record<string, string>), kid: 'k1', alg: 'ES256', use: 'sig' };
    const client = await serviceClient(h(), 'master', {
      tokenEndpointAuthMethod: 'private_key_jwt',
      secretHash: null,
      jwks: { keys: [jwk as never] },
    });
    const now = Math.floor(h().clock.now() / 1000);
    const assertion = (o: Record<string, unknown> = {}, key = privateKey) =>
      signJwt(
        { kid: 'k1', alg: 'ES256', privateKey: key },
        { typ: 'JWT' },
        {
          iss: client.clientId,
          sub: client.clientId,
          aud: 'http://umbo.test/realms/master/oauth/token',
          exp: now + 60,
          iat: now,
          jti: crypto.randomUUID(),
          ...o,
        },
      );
    const form = (a: string) => ({ ...CC, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: a });
    const a1 = assertion();
    expect((await postToken(h(), 'master', form(a1))).status).toBe(200);
    expect((await postToken(h(), 'master', form(a1))).body.error).toBe('invalid_client');
    expect((await postToken(h(), 'master', form(assertion({ aud: 'https://elsewhere.test/token' })))).body.error).toBe('invalid_client');
    expect((await postToken(h(), 'master', form(assertion({ exp: now - 3600 })))).body.error).toBe('invalid_client');
    const other = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect((await postToken(h(), 'master', form(assertion({}, other)))).body.error).toBe('invalid_client');
    // the issuer itself is an accepted audience too
    expect((await postToken(h(), 'master', form(assertion({ aud: 'http://umbo.test/realms/master' })))).status).toBe(200);
    // a secret is no way in for a private_key_jwt client
    expect((await postToken(h(), 'master', { ...CC, client_id: client.clientId, client_secret: 'secret' })).status).toBe(401);
    // RFC 7523 §3 (7): one assertion replayed 30 times at once authenticates exactly once (last: the failures then throttle the client)
    const a2 = assertion();
    const burst = await Promise.all(Array.from({ length: 30 }, () => postToken(h(), 'master', form(a2))));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(1);
    expect(burst.filter((r) => r.status === 401 && r.body.error === 'invalid_client')).toHaveLength(29);
  });

  it('a confidential client naming itself without a secret → invalid_client', async () => {
    const client = await makeClient(h(), 'master');
    const user = await createPerson(h());
    await userTokens(h(), client, user);
    const res = await postToken(h(), 'master', { grant_type: 'refresh_token', refresh_token: 'x', client_id: client.clientId });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});
