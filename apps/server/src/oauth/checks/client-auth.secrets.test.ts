/**
 * The remembered secret of client authentication (client-auth.ts `secretMatches`, issue 12
 * bench): a secret that matched is recognised again without hashing, and nothing else is —
 * not a wrong secret, not a longer or shorter one, not the old secret once the client object
 * is replaced (the client cache replaces it whenever the auth epoch moves: disabled, secret
 * regenerated, deleted). The database side of those changes is client-cache.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import type { OAuthClient } from '../../clients/clients.repo.js';
import { createSecrets } from '../../platform/crypto.js';
import { createClientAuth } from './client-auth.js';

const secrets = createSecrets(Buffer.alloc(32, 7));
const hashOf = (s: string) => secrets.hash('client-secret', s);

function clientWith(secret: string, patch: Partial<OAuthClient> = {}): OAuthClient {
  return Object.freeze({
    id: 'row1',
    realmId: 'master',
    clientId: 'svc',
    secretHash: hashOf(secret),
    tokenEndpointAuthMethod: 'client_secret_basic',
    grantTypes: ['client_credentials'],
    disabled: false,
    ...patch,
  } as OAuthClient);
}

function setup(first: OAuthClient) {
  let current = first;
  const hashed: string[] = [];
  const auth = createClientAuth({
    findClient: async () => current,
    verifySecret: (client, presented) => {
      hashed.push(presented);
      return client.secretHash !== null && hashOf(presented) === client.secretHash;
    },
    realmExists: async () => true,
    useAssertionId: async () => true,
    throttle: { kind: 'database', reserve: async () => [], settle: async () => undefined },
    secrets,
    clock: { now: () => 1_000_000 },
    issuer: (realmId) => `http://umbo.test/realms/${realmId}`,
  });
  const basic = (secret: string) => `Basic ${Buffer.from(`svc:${encodeURIComponent(secret)}`).toString('base64')}`;
  const attempt = (secret: string) =>
    auth.authenticate({ realmId: 'master', authorization: basic(secret), params: {}, endpointUrl: 'http://umbo.test/t' }, { allowPublic: false }).then(
      (r) => r.client,
      (err: { error?: string }) => err.error,
    );
  return { attempt, hashed, replace: (c: OAuthClient) => void (current = c) };
}

const SECRET = 'A'.repeat(16) + 'b'.repeat(16);

describe('client secrets remembered per client object', () => {
  it('a matched secret is recognised again without hashing; a wrong one is hashed and refused every time', async () => {
    const c = clientWith(SECRET);
    const s = setup(c);
    expect(await s.attempt(SECRET)).toBe(c);
    expect(await s.attempt(SECRET)).toBe(c);
    expect(await s.attempt(SECRET)).toBe(c);
    expect(s.hashed).toEqual([SECRET]);
    for (const wrong of [SECRET.slice(0, -1) + 'c', SECRET.slice(0, -1), SECRET + 'b', '', SECRET.toLowerCase()]) {
      expect(await s.attempt(wrong)).toBe('invalid_client');
    }
    expect(s.hashed).toHaveLength(6);
    expect(await s.attempt(SECRET)).toBe(c);
    expect(s.hashed).toHaveLength(6);
  });

  it('a new client object (the epoch moved): the old secret is hashed again and refused, the new one accepted', async () => {
    const s = setup(clientWith(SECRET));
    await s.attempt(SECRET);
    const regenerated = clientWith('N'.repeat(32));
    s.replace(regenerated);
    expect(await s.attempt(SECRET)).toBe('invalid_client');
    expect(await s.attempt('N'.repeat(32))).toBe(regenerated);
    expect(s.hashed).toEqual([SECRET, SECRET, 'N'.repeat(32)]);
  });

  it('a disabled client is refused with its remembered secret, before any secret is looked at', async () => {
    const s = setup(clientWith(SECRET));
    await s.attempt(SECRET);
    s.replace(clientWith(SECRET, { disabled: true }));
    expect(await s.attempt(SECRET)).toBe('invalid_client');
    expect(s.hashed).toEqual([SECRET]);
  });
});
