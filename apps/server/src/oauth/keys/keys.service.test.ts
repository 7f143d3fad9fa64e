/**
 * A realm's signing keys through services.oauthKeys (issue 12): first key on first need
 * (race-safe), sealed at rest, A-25 rotation with overlap on the fake clock.
 */
import { describe, expect, it } from 'vitest';
import { describeBothDbs, type Harness } from '../../test/harness.js';
import { createRealm } from '../../test/kit.js';
import { transactOn } from '../../platform/db.js';
import { CLIENT_LIMITS } from '@umbo/contracts';
import {
  ID_TOKEN_TTL_SEC,
  JWKS_CACHE_MAX_AGE_SEC,
  KEY_CACHE_TTL_MS,
  KEY_PUBLISH_BEFORE_USE_SEC,
  KEY_RETAIN_AFTER_RETIRE_SEC,
  MAX_SIGNED_TOKEN_LIFETIME_SEC,
} from '../defaults.js';
import { JwtError } from '../jwt.js';
import { createOAuthKeysService } from './keys.service.js';

const SEC = 1000;
const kidOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
const rows = (h: Harness, realmId: string) => h.dbh.db.selectFrom('oauth_signing_keys').selectAll().where('realm_id', '=', realmId).execute();

/** What a second process on the same database would be given (its own cache), as the two-instance deployment has. */
const deps = (h: Harness) => ({
  repo: h.ctx.repos.oauthKeys,
  secrets: h.ctx.secrets,
  clock: h.clock,
  audit: h.ctx.services.audit,
  transact: transactOn(h.ctx.db),
  publicUrl: h.ctx.config.publicUrl,
  realmExists: h.ctx.services.oauthKeys.realmExists,
});
const otherInstance = (h: Harness) => createOAuthKeysService(deps(h));

describeBothDbs('oauth signing keys', (h) => {
  const keys = () => h().ctx.services.oauthKeys;
  const claims = (realmId: string, ttlSec = 300) => {
    const now = Math.floor(h().clock.now() / 1000);
    return { iss: keys().issuer(realmId), sub: 'u1', aud: 'c1', iat: now, exp: now + ttlSec };
  };

  it('signs and verifies with the realm key created on first need; iss must be this realm', async () => {
    const r1 = await createRealm(h());
    const r2 = await createRealm(h());
    expect(await rows(h(), r1)).toHaveLength(0);
    const jwt = await keys().sign(r1, 'ES256', { typ: 'at+jwt' }, claims(r1));
    expect(await keys().verify(r1, jwt, { typ: 'at+jwt', audience: 'c1' })).toMatchObject({ sub: 'u1' });
    await expect(keys().verify(r1, jwt, { typ: 'JWT' })).rejects.toBeInstanceOf(JwtError);
    // realm B does not know realm A's key, and its issuer differs
    await expect(keys().verify(r2, jwt, { typ: 'at+jwt' })).rejects.toMatchObject({ reason: 'kid' });
    const forR2 = await keys().sign(r1, 'ES256', { typ: 'at+jwt' }, claims(r2));
    await expect(keys().verify(r1, forR2, { typ: 'at+jwt' })).rejects.toMatchObject({ reason: 'iss' });
    const stored = await rows(h(), r1);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ alg: 'ES256', generation: 1, kid: kidOf(jwt) });
  });

  it('an RS256 key (RSA ≥ 2048) is made only when asked; private keys are sealed in the database', async () => {
    const r = await createRealm(h());
    const jwt = await keys().sign(r, 'RS256', { typ: 'JWT' }, claims(r));
    expect(JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(await keys().verify(r, jwt, { typ: 'JWT' })).toMatchObject({ sub: 'u1' });
    const stored = await rows(h(), r);
    expect(stored.map((x) => x.alg)).toEqual(['RS256']);
    for (const row of stored) {
      const all = JSON.stringify(row);
      expect(all).not.toMatch(/PRIVATE KEY|BEGIN/);
      expect(row.private_sealed).toMatch(/^v1\./);
      expect(h().ctx.secrets.decrypt(row.private_sealed)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
      expect(Object.keys(JSON.parse(row.public_jwk) as object).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    }
  });

  it('two instances creating a realm first key at once end with one key, used by both', async () => {
    const r = await createRealm(h());
    const instances = [keys(), ...Array.from({ length: 5 }, () => otherInstance(h()))];
    const jwts = await Promise.all(
      instances.flatMap((k) => [k.sign(r, 'ES256', { typ: 'at+jwt' }, claims(r)), k.sign(r, 'ES256', { typ: 'at+jwt' }, claims(r))]),
    );
    expect(new Set(jwts.map(kidOf)).size).toBe(1);
    expect(await rows(h(), r)).toHaveLength(1);
    for (const k of instances) expect(await k.verify(r, jwts[0]!, { typ: 'at+jwt' })).toMatchObject({ sub: 'u1' });
  });

  it('signing reads no database while the cache is fresh; it re-reads after the cache lifetime', async () => {
    const r = await createRealm(h());
    let reads = 0;
    const real = h().ctx.repos.oauthKeys;
    const repo = { ...real, listByRealm: (realmId: string) => (reads++, real.listByRealm(realmId)) };
    const k = createOAuthKeysService({ ...deps(h()), repo });
    const first = await k.sign(r, 'ES256', { typ: 'at+jwt' }, claims(r));
    const afterFirst = reads;
    const many = await Promise.all(Array.from({ length: 200 }, () => k.sign(r, 'ES256', { typ: 'at+jwt' }, claims(r))));
    await Promise.all(many.map((jwt) => k.verify(r, jwt, { typ: 'at+jwt' })));
    expect(reads).toBe(afterFirst);
    expect(new Set(many.map(kidOf))).toEqual(new Set([kidOf(first)]));
    h().clock.advance(KEY_CACHE_TTL_MS);
    await k.sign(r, 'ES256', { typ: 'at+jwt' }, claims(r));
    expect(reads).toBe(afterFirst + 1);
  });

  it('A-25 rotation: the new kid is published before first use; old tokens verify until the max TTL; then the old key is removed', async () => {
    const r = await createRealm(h());
    const other = otherInstance(h());
    const old = await keys().sign(r, 'ES256', { typ: 'at+jwt' }, claims(r, MAX_SIGNED_TOKEN_LIFETIME_SEC));
    const oldKid = kidOf(old);
    await other.jwks(r); // the other instance has cached the old JWKS

    const listed = await keys().rotate(r, { actor: null });
    const fresh = listed.find((k) => k.kid !== oldKid)!;
    expect(fresh).toMatchObject({ alg: 'ES256', status: 'pending', useAfter: h().clock.now() + KEY_PUBLISH_BEFORE_USE_SEC * SEC });
    // published at once, still not signing
    expect((await keys().jwks(r)).keys.map((k) => k.kid).sort()).toEqual([oldKid, fresh.kid].sort());
    expect(kidOf(await keys().sign(r, 'ES256', { typ: 'at+jwt' }, claims(r)))).toBe(oldKid);

    // within the JWKS cache lifetime the other instance publishes it too, before anyone signs with it
    h().clock.advance((KEY_PUBLISH_BEFORE_USE_SEC - 1) * SEC);
    expect((await other.jwks(r)).keys.map((k) => k.kid)).toContain(fresh.kid);
    expect(kidOf(await other.sign(r, 'ES256', { typ: 'at+jwt' }, claims(r)))).toBe(oldKid);

    // after the publish delay both instances sign with the new key
    h().clock.advance(1 * SEC);
    const next = await keys().sign(r, 'ES256', { typ: 'at+jwt' }, claims(r));
    expect(kidOf(next)).toBe(fresh.kid);
    expect(kidOf(await other.sign(r, 'ES256', { typ: 'at+jwt' }, claims(r)))).toBe(fresh.kid);
    expect(await other.verify(r, next, { typ: 'at+jwt' })).toMatchObject({ sub: 'u1' });

    // the old key's longest token still verifies until it expires …
    const retiredAt = h().clock.now();
    h().clock.set(retiredAt + (KEY_RETAIN_AFTER_RETIRE_SEC - 2 * KEY_PUBLISH_BEFORE_USE_SEC) * SEC);
    expect(await keys().verify(r, old, { typ: 'at+jwt' })).toMatchObject({ sub: 'u1' });
    expect((await keys().jwks(r)).keys.map((k) => k.kid)).toContain(oldKid);
    expect((await keys().list(r)).find((k) => k.kid === oldKid)?.status).toBe('retired');

    // … and then the key leaves the JWKS and the database
    h().clock.set(retiredAt + KEY_RETAIN_AFTER_RETIRE_SEC * SEC);
    expect((await keys().jwks(r)).keys.map((k) => k.kid)).toEqual([fresh.kid]);
    expect((await rows(h(), r)).map((x) => x.kid)).toEqual([fresh.kid]);
    await expect(keys().verify(r, old, { typ: 'at+jwt' })).rejects.toMatchObject({ reason: 'kid' });
  });

  it('rotation rotates every algorithm in use and records oauth.key.rotated', async () => {
    const r = await createRealm(h());
    await keys().sign(r, 'RS256', { typ: 'JWT' }, claims(r));
    const before = await keys().list(r);
    expect(before.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    const after = await keys().rotate(r, { actor: null });
    expect(
      after
        .filter((k) => k.status === 'pending')
        .map((k) => k.alg)
        .sort(),
    ).toEqual(['ES256', 'RS256']);
    const events = await h().dbh.db.selectFrom('audit_events').selectAll().where('realm_id', '=', r).where('action', '=', 'oauth.key.rotated').execute();
    expect(events).toHaveLength(2);
    expect(JSON.stringify(events)).not.toMatch(/PRIVATE|v1\./);
  });
});

describe('oauth signing keys (no database)', () => {
  it('defaults: a retired key outlives the longest token it signed (client access tokens, ID tokens)', () => {
    expect(KEY_RETAIN_AFTER_RETIRE_SEC).toBeGreaterThanOrEqual(MAX_SIGNED_TOKEN_LIFETIME_SEC);
    expect(CLIENT_LIMITS.tokenExpirSecMax).toBeLessThanOrEqual(MAX_SIGNED_TOKEN_LIFETIME_SEC);
    expect(ID_TOKEN_TTL_SEC).toBeLessThanOrEqual(MAX_SIGNED_TOKEN_LIFETIME_SEC);
    // publish before use: relying parties' cached JWKS (max-age) expires before the key signs
    expect(KEY_PUBLISH_BEFORE_USE_SEC).toBeGreaterThanOrEqual(JWKS_CACHE_MAX_AGE_SEC);
    expect(KEY_CACHE_TTL_MS).toBeLessThan(KEY_PUBLISH_BEFORE_USE_SEC * SEC);
  });
});
