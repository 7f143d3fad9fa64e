/**
 * Clients that authenticate at the provider are kept in each instance's memory
 * (client-cache.ts) while the auth epoch holds; every change made through umbo bumps it
 * (clients.repo.ts). So a client disabled, its secret regenerated, its source ranges narrowed or
 * the client deleted — through the console API of this instance or, on PostgreSQL, of another
 * one — is refused at the very next token request. Every test first makes sure the client is
 * in the answering instance's cache (a second request is a hit), so a refusal afterwards shows
 * the entry was dropped, not merely unused.
 */
import fs from 'node:fs';
import { clientPaths } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createContext, type AppContext } from '../composition/context.js';
import { postToken, serviceClient } from '../oauth/test/token.testkit.js';
import { openDb } from '../platform/db.js';
import { createHarness, DB_TARGETS, describeBothDbs, PG_URL, testConfig, type Harness } from '../test/harness.js';
import { ADMIN, as, tokenFor } from '../test/kit.js';

type Node = Pick<Harness, 'app' | 'ctx'>;

const CC = { grant_type: 'client_credentials' };
const stats = (node: Node) => node.ctx.services.oauthClientCache.stats();

/** A token request at `node` as `client` (a harness-like view of the node for postToken). */
const tokenAt = (node: Node, h: Harness, client: { clientId: string }, o: { secret?: string; ip?: string } = {}) =>
  postToken({ ...h, app: node.app, ctx: node.ctx }, 'master', CC, { client, ...o });

/** Two token requests at `node`: both succeed and the second is served from its cache. */
async function cached(node: Node, h: Harness, client: { clientId: string }, o: { secret?: string; ip?: string } = {}): Promise<void> {
  expect((await tokenAt(node, h, client, o)).status).toBe(200);
  const before = stats(node);
  expect((await tokenAt(node, h, client, o)).status).toBe(200);
  expect(stats(node)).toMatchObject({ hits: before.hits + 1, misses: before.misses });
}

/** The console API of `node`, as the first administrator. */
async function adminApi(node: Node, h: Harness) {
  const token = await tokenFor({ ...h, app: node.app, ctx: node.ctx }, ADMIN);
  const api = as(node, token);
  const one = (clientId: string) => clientPaths.one({ realmId: 'master' }, clientId);
  return {
    patch: async (clientId: string, body: object) => expect((await api.patch(one(clientId), body)).status).toBe(200),
    remove: async (clientId: string) => expect((await api.delete(one(clientId))).status).toBe(200),
    newSecret: async (clientId: string) => {
      const res = await api.post(clientPaths.secret({ realmId: 'master' }, clientId), {});
      expect(res.status).toBe(200);
      return res.body.data.clientSecret as string;
    },
  };
}

/** The changes every instance must see at once, made on `writer`, checked on `reader`. */
function changesSeenAtOnce(nodes: () => { writer: Node; reader: Node; h: Harness }) {
  it('a client disabled is refused at the next request, and enabled is served again', async () => {
    const { writer, reader, h } = nodes();
    const client = await serviceClient(h, 'master');
    await cached(reader, h, client);
    const api = await adminApi(writer, h);
    await api.patch(client.clientId, { disabled: true });
    const refused = await tokenAt(reader, h, client);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    await api.patch(client.clientId, { disabled: false });
    expect((await tokenAt(reader, h, client)).status).toBe(200);
  });

  it('a regenerated secret: the old one is refused at the next request, the new one accepted', async () => {
    const { writer, reader, h } = nodes();
    const client = await serviceClient(h, 'master');
    await cached(reader, h, client);
    const secret = await (await adminApi(writer, h)).newSecret(client.clientId);
    expect((await tokenAt(reader, h, client)).body.error).toBe('invalid_client');
    expect((await tokenAt(reader, h, client, { secret })).status).toBe(200);
  });

  it('source ranges narrowed: an address outside them is refused at the next request', async () => {
    const { writer, reader, h } = nodes();
    const client = await serviceClient(h, 'master');
    await cached(reader, h, client, { ip: '10.9.0.1' });
    await (await adminApi(writer, h)).patch(client.clientId, { sourceRanges: ['192.168.0.0/16'] });
    const outside = await tokenAt(reader, h, client, { ip: '10.9.0.1' });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toBe('unauthorized_client');
    expect((await tokenAt(reader, h, client, { ip: '192.168.3.4' })).status).toBe(200);
  });

  it('a deleted client is unknown at the next request', async () => {
    const { writer, reader, h } = nodes();
    const client = await serviceClient(h, 'master');
    await cached(reader, h, client);
    await (await adminApi(writer, h)).remove(client.clientId);
    expect((await tokenAt(reader, h, client)).body.error).toBe('invalid_client');
  });
}

describeBothDbs('clients kept per instance', (h) => {
  changesSeenAtOnce(() => ({ writer: h(), reader: h(), h: h() }));

  it('the client handed out cannot be changed by a request', async () => {
    const client = await serviceClient(h(), 'master');
    await cached(h(), h(), client);
    const kept = await h().ctx.services.oauthClientCache.findByClientId('master', client.clientId);
    expect(() => kept!.grantTypes.push('password')).toThrow(TypeError);
    expect(() => Object.assign(kept!, { disabled: true })).toThrow(TypeError);
    expect((await tokenAt(h(), h(), client)).status).toBe(200);
  });

  it("a change written around umbo (an operator's plain SQL) holds at the next request: the epoch moves by trigger (migration 0032)", async () => {
    const client = await serviceClient(h(), 'master');
    await cached(h(), h(), client);
    await h().dbh.db.updateTable('oauth_clients').set({ disabled: 1 }).where('id', '=', client.id).execute();
    expect((await tokenAt(h(), h(), client)).body.error).toBe('invalid_client');
    await h().dbh.db.updateTable('oauth_clients').set({ disabled: 0 }).where('id', '=', client.id).execute();
    expect((await tokenAt(h(), h(), client)).status).toBe(200);
    await h().dbh.db.deleteFrom('oauth_clients').where('id', '=', client.id).execute();
    expect((await tokenAt(h(), h(), client)).body.error).toBe('invalid_client');
  });
});

/**
 * A second server instance on the harness's PostgreSQL schema: its own pool, context and so its
 * own caches, the same master key and clock, as two processes behind a load balancer.
 */
async function secondInstance(h: Harness): Promise<{ app: FastifyInstance; ctx: AppContext; dispose(): Promise<void> }> {
  const dbh = openDb(PG_URL, { schema: h.dbh.schema!, poolMax: 5 });
  const config = testConfig();
  const ctx = createContext(config, dbh, h.clock);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return {
    app,
    ctx,
    async dispose() {
      await app.close();
      await dbh.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

describe('clients kept per instance: two instances on one PostgreSQL [postgres]', () => {
  let a: Harness & { dispose(): Promise<void> };
  let b: Awaited<ReturnType<typeof secondInstance>>;
  beforeAll(async () => {
    a = await createHarness(DB_TARGETS.find((t) => t.dialect === 'postgres')!);
    b = await secondInstance(a);
  });
  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
  });

  changesSeenAtOnce(() => ({ writer: a, reader: b, h: a }));
});
