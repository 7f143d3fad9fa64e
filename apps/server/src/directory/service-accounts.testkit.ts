/**
 * Helpers of the service-account suites (issue 11): the two doors' paths, a custom role made
 * through the role repository, and a service account added over HTTP.
 */
import type { PermissionGrant } from '../perm/builtin-roles.js';
import type { Harness } from '../test/harness.js';
import { as, type TestAccount } from '../test/kit.js';
import crypto from 'node:crypto';

export const SERVICE_PASSWORD = 'Robot-Arm-4471';

export const adminBase = (realmId: string, ownerId: string) => `/api/users/realms/${realmId}/accounts/${ownerId}/services`;
export const adminOne = (realmId: string, ownerId: string, id: string) => `${adminBase(realmId, ownerId)}/${id}`;
export const OWN_BASE = '/api/users/account/services';
export const ownOne = (id: string) => `${OWN_BASE}/${id}`;

/** A custom role of `realmId` holding `permissions`, bound to `account` there; answers the role id. */
export async function grantRole(h: Harness, account: Pick<TestAccount, 'id' | 'realmId'>, permissions: PermissionGrant[]): Promise<string> {
  const id = `r-${crypto.randomBytes(4).toString('hex')}`;
  const now = h.clock.now();
  await h.ctx.repos.roles.insertRole({ id, realm_id: account.realmId, name: id, description: 'test role', permissions, created_at: now });
  await h.ctx.repos.roles.bindRole(account.id, id, account.realmId, now);
  return id;
}

/** POST …/services as the holder of `token`; the test fails unless it answers 200. Answers the view. */
export async function addService(h: Harness, token: string, owner: Pick<TestAccount, 'id' | 'realmId'>, body: Record<string, unknown>) {
  const res = await as(h, token).post(adminBase(owner.realmId, owner.id), { password: SERVICE_PASSWORD, ...body });
  if (res.status !== 200) throw new Error(`add service: ${JSON.stringify(res.body)}`);
  return res.body.data as { sub_id: string; account: string; subname: string };
}

/** Every audit event of a realm whose action starts with `service.`, oldest first. */
export async function serviceEvents(h: Harness, realmId: string) {
  const page = await h.ctx.services.audit.list({ realmId, limit: 100, action: 'service.' });
  return page.items.reverse();
}
