/**
 * A-24 (AS-18, AS-26): a realm's discovery document and JWKS through the real app; the
 * console's key list and rotation (realm-scoped, audited, no private material).
 */
import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { ADMIN_PASSWORD, as, createRealm } from '../../test/kit.js';
import { auditRows, holder } from '../../realms/realms.testkit.js';
import { JWKS_CACHE_MAX_AGE_SEC } from '../defaults.js';

const PUBLIC_URL = 'http://umbo.test';
const discoveryPath = (realmId: string) => `/realms/${realmId}/.well-known/openid-configuration`;
const jwksPath = (realmId: string) => `/realms/${realmId}/oauth/jwks`;
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

async function discovery(h: Harness, realmId: string) {
  const res = await as(h).get(discoveryPath(realmId));
  expect(res.status).toBe(200);
  return res;
}

describeBothDbs('A-24 discovery and JWKS', (h) => {
  it('issuer equals the request prefix byte-for-byte; every endpoint is under this realm', async () => {
    const r = await createRealm(h());
    const res = await discovery(h(), r);
    const doc = res.body;
    expect(`${doc.issuer}/.well-known/openid-configuration`).toBe(`${PUBLIC_URL}${discoveryPath(r)}`);
    expect(doc.issuer).toBe(`${PUBLIC_URL}/realms/${r}`);
    for (const name of [
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
      'end_session_endpoint',
      'device_authorization_endpoint',
      'introspection_endpoint',
      'revocation_endpoint',
    ]) {
      expect(doc[name], name).toMatch(new RegExp(`^${doc.issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/oauth/[a-z_]+$`));
    }
    expect(doc.jwks_uri).toBe(`${PUBLIC_URL}${jwksPath(r)}`);
    // a forged Host does not change the issuer (it comes from PUBLIC_URL)
    const forged = await as(h()).get(discoveryPath(r), { headers: { host: 'evil.test', 'x-forwarded-host': 'evil.test' } });
    expect(forged.body.issuer).toBe(doc.issuer);
    // another realm: another issuer, other endpoints
    const other = (await discovery(h(), 'master')).body;
    expect(other.issuer).toBe(`${PUBLIC_URL}/realms/master`);
    expect(other.token_endpoint).not.toBe(doc.token_endpoint);
  });

  it('capabilities: S256 only, code only, no password/implicit/none, request_uri false, iss parameter true', async () => {
    const doc = (await discovery(h(), 'master')).body;
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.response_modes_supported).toEqual(['query']);
    expect(doc.grant_types_supported).not.toContain('password');
    expect(doc.grant_types_supported).not.toContain('implicit');
    expect(doc.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']),
    );
    expect(doc.response_types_supported).not.toContain('none');
    expect(doc.id_token_signing_alg_values_supported).toEqual(['ES256', 'RS256']);
    expect(doc.id_token_signing_alg_values_supported).not.toContain('none');
    expect(doc.token_endpoint_auth_signing_alg_values_supported).not.toContain('none');
    expect(doc.request_uri_parameter_supported).toBe(false);
    expect(doc.request_parameter_supported).toBe(false);
    expect(doc.authorization_response_iss_parameter_supported).toBe(true);
    expect(doc.subject_types_supported).toEqual(['public']);
    expect(doc.scopes_supported).toEqual(['openid', 'profile', 'email', 'phone', 'offline_access']);
    expect(doc.prompt_values_supported).toEqual(['none', 'login', 'consent']);
    expect(doc.frontchannel_logout_supported).toBe(false);
  });

  it('cacheable for the JWKS cache lifetime, readable cross-origin (these two only)', async () => {
    const res = await discovery(h(), 'master');
    const jwks = await as(h()).get(jwksPath('master'));
    for (const r of [res, jwks]) {
      expect(r.headers['cache-control']).toBe(`public, max-age=${JWKS_CACHE_MAX_AGE_SEC}`);
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
    expect(String(jwks.headers['content-type'])).toMatch(/^application\/jwk-set\+json/);
    const api = await as(h()).get('/api/users/realms');
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('unknown realm → 404 JSON, for discovery and JWKS; no key is made for it', async () => {
    for (const id of ['nope-realm', 'MASTER', 'a.b', 'a%20b', "'%20OR%201=1--", 'x'.repeat(65)]) {
      for (const path of [discoveryPath(id), jwksPath(id)]) {
        const res = await as(h()).get(path);
        expect(res.status, path).toBe(404);
        expect(res.body.error, path).toBe('not_found');
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
    }
    const rows = await h().dbh.db.selectFrom('oauth_signing_keys').select('kid').where('realm_id', '=', 'nope-realm').execute();
    expect(rows).toHaveLength(0);
  });

  it('JWKS after realm creation: one ES256 key, public members only, unique kid; RSA ≥ 2048 once made', async () => {
    const token = await h().login();
    const created = await as(h(), token).post('/api/users/realms', {
      realmId: `k${crypto.randomBytes(4).toString('hex')}`,
      domain: `${crypto.randomBytes(4).toString('hex')}.example.com`,
      description: 'keys test',
    });
    expect(created.status).toBe(200);
    const r = created.body.data.realmId as string;
    const first = (await as(h()).get(jwksPath(r))).body;
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    // an RS256 key appears when a client first asks for one
    await h().ctx.services.oauthKeys.sign(r, 'RS256', { typ: 'JWT' }, { iss: 'x' });
    const jwks = (await as(h()).get(jwksPath(r))).body;
    expect(jwks.keys).toHaveLength(2);
    expect(new Set(jwks.keys.map((k: { kid: string }) => k.kid)).size).toBe(jwks.keys.length);
    for (const jwk of jwks.keys as Record<string, string>[]) {
      for (const m of PRIVATE_MEMBERS) expect(jwk, m).not.toHaveProperty(m);
      expect(typeof jwk.kid).toBe('string');
      expect(jwk.use).toBe('sig');
      const key = crypto.createPublicKey({ key: jwk as crypto.JsonWebKey, format: 'jwk' });
      if (jwk.kty === 'RSA') expect(key.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
      else expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    }
  });
});

describeBothDbs('oauth keys admin', (h) => {
  const keysUrl = (r: string) => `/api/users/realms/${r}/oauth/keys`;

  it('lists and rotates (domain.query / domain.update in that realm), audited, never private material', async () => {
    const r = await createRealm(h());
    const admin = await holder(h(), r, 'realm-admin');
    const list = await as(h(), admin.token).get(keysUrl(r));
    expect(list.status).toBe(200);
    expect(list.body.data.discoveryUrl).toBe(`${PUBLIC_URL}${discoveryPath(r)}`);
    expect(list.body.data.keys).toEqual([expect.objectContaining({ alg: 'ES256', status: 'active', retiredAt: null })]);
    const oldKid = list.body.data.keys[0].kid as string;

    const rotated = await as(h(), admin.token).post(`${keysUrl(r)}/rotate`);
    expect(rotated.status).toBe(200);
    const keys = rotated.body.data.keys as { kid: string; status: string; useAfter: number; retiredAt: number | null }[];
    const fresh = keys.find((k) => k.kid !== oldKid)!;
    expect(fresh.status).toBe('pending');
    expect(keys.find((k) => k.kid === oldKid)?.retiredAt).toBe(fresh.useAfter);
    // published at once
    const jwks = (await as(h()).get(jwksPath(r))).body;
    expect(jwks.keys.map((k: { kid: string }) => k.kid).sort()).toEqual([oldKid, fresh.kid].sort());

    const events = (await auditRows(h(), r)).filter((e) => e.action === 'oauth.key.rotated');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_id: admin.person.id, result: 'ok' });

    for (const body of [list.text, rotated.text, JSON.stringify(events)]) expect(body).not.toMatch(/PRIVATE KEY|"d":|v1\./);
    // sealed in the database: no PEM header in any column of any row
    const rows = await h().dbh.db.selectFrom('oauth_signing_keys').selectAll().where('realm_id', '=', r).execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain('-----BEGIN');
  });

  it('a viewer lists but does not rotate; another realm`s administrator does neither; unknown realm for the platform admin → 1004', async () => {
    const r = await createRealm(h());
    const viewer = await holder(h(), r, 'realm-viewer');
    expect((await as(h(), viewer.token).get(keysUrl(r))).status).toBe(200);
    const denied = await as(h(), viewer.token).post(`${keysUrl(r)}/rotate`);
    expect(denied.body.code).toBe(1003);
    const elsewhere = await holder(h(), await createRealm(h()), 'realm-admin');
    expect((await as(h(), elsewhere.token).get(keysUrl(r))).body.code).toBe(1003);
    expect((await as(h(), elsewhere.token).post(`${keysUrl(r)}/rotate`)).body.code).toBe(1003);
    const platform = await h().login('admin', ADMIN_PASSWORD);
    expect((await as(h(), platform).get(keysUrl('no-such-realm'))).body.code).toBe(1004);
    expect((await as(h(), platform).post(`${keysUrl('no-such-realm')}/rotate`)).body.code).toBe(1004);
  });

  it('deleting a realm deletes its keys', async () => {
    const token = await h().login();
    const r = await createRealm(h());
    await h().ctx.services.oauthKeys.jwks(r);
    const del = await as(h(), token).delete(`/api/users/realms/${r}`, {});
    expect(del.status).toBe(200);
    expect(await h().dbh.db.selectFrom('oauth_signing_keys').select('kid').where('realm_id', '=', r).execute()).toHaveLength(0);
  });
});
