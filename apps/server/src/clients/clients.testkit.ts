/** Fixtures of the clients suites: a valid client body, a developer (userClient), creation through the API. */
import { clientPaths, type ClientCreateBody } from '@umbo/contracts';
import { expect } from 'vitest';
import type { Harness } from '../test/harness.js';
import { as, bindRole, createPerson, randomName, tokenFor, type TestAccount } from '../test/kit.js';

export const adminClients = (realmId: string) => clientPaths.list({ realmId });
export const adminClient = (realmId: string, clientId: string) => clientPaths.one({ realmId }, clientId);
export const OWN = clientPaths.list('own');

/** A valid body (SPEC §3/§5's required fields), with `patch` over it. */
export function clientBody(patch: Partial<ClientCreateBody> & Record<string, unknown> = {}): ClientCreateBody {
  return {
    name: `app ${randomName()}`,
    desc: 'a client for tests',
    authCodeMulitUse: false,
    tokenExpirSec: 3600,
    refreshtokenExpirSec: 86400,
    refreshTokenRecreate: true,
    redirectUris: ['https://app.test/cb'],
    ...patch,
  } as ClientCreateBody;
}

/** Creates through the admin door; answers the created client and its one-time secret. */
export async function addClient(h: Harness, token: string, realmId: string, patch: Parameters<typeof clientBody>[0] = {}) {
  const res = await as(h, token).post(adminClients(realmId), clientBody(patch));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { client: { clientId: string } & Record<string, unknown>; clientSecret: string | null };
}

/** A person of the realm holding userClient (every action) there, signed in. */
export async function developer(h: Harness, realmId: string): Promise<TestAccount & { token: string }> {
  const roleId = `dev-${realmId}`;
  if (!(await h.dbh.db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst())) {
    await h.ctx.repos.roles.insertRole({
      id: roleId,
      realm_id: realmId,
      name: `developer_${realmId}`,
      description: 'developer',
      permissions: [{ permissionId: 'userClient', actions: ['query', 'get', 'add', 'update', 'delete'] }],
      created_at: h.clock.now(),
    });
  }
  const person = await createPerson(h, { realmId });
  await bindRole(h, person, roleId, realmId);
  return { ...person, token: await tokenFor(h, person) };
}

/** Every column of every stored client row, as one string: a secret must not be in it. */
export async function allClientText(h: Harness): Promise<string> {
  const rows = await h.dbh.db.selectFrom('oauth_clients').selectAll().execute();
  const audit = await h.dbh.db.selectFrom('audit_events').selectAll().execute();
  return JSON.stringify([rows, audit]);
}
