/**
 * The permission matrix's requests: for a route of the registry, the request that aims
 * it at a realm with plausible ids of that realm in every other path parameter, so that a
 * refusal is the guard's and not a 404 of a made-up id.
 */
import { issueSession, createPerson, createRealm, createService, type TestAccount } from '../test/kit.js';
import type { Harness } from '../test/harness.js';

/** A route of the registry (auth/guard.ts RouteAccess; perm sits below auth, so its shape is restated). */
export interface RouteAccess {
  method: string;
  url: string;
  access: string;
  realm?: string;
}

/** Objects of one realm that path parameters can name. */
export interface RealmFixture {
  realmId: string;
  person: TestAccount;
  service: TestAccount;
  roleId: string;
  sessionId: string;
}

export async function realmFixture(h: Harness, realmId?: string): Promise<RealmFixture> {
  const id = realmId ?? (await createRealm(h));
  const person = await createPerson(h, { realmId: id });
  const service = await createService(h, person, `svc${Math.random().toString(36).slice(2, 8)}`);
  const roleId = `role-${id}`;
  await h.ctx.repos.roles.insertRole({
    id: roleId,
    realm_id: id,
    name: `fixture_${id}`,
    description: 'matrix fixture',
    permissions: [{ permissionId: 'person', actions: ['query'] }],
    created_at: h.clock.now(),
  });
  await issueSession(h, person);
  const session = await h.dbh.db.selectFrom('sessions').select('id').where('account_id', '=', person.id).executeTakeFirstOrThrow();
  return { realmId: id, person, service, roleId, sessionId: session.id };
}

/** The value a path parameter gets: the realm's own objects by name, else a plausible id. */
export function paramValue(name: string, f: RealmFixture): string {
  if (/^realm(Id)?$/i.test(name)) return f.realmId;
  if (/^roleId$/.test(name)) return f.roleId;
  if (/^(serviceId|subId|sub_id)$/.test(name)) return f.service.id;
  if (/^sessionId$/.test(name)) return f.sessionId;
  if (/^kind$/.test(name)) return 'logo';
  // accountId, ownerId, id and whatever else names an object: the realm's person account
  return f.person.id;
}

export interface AimedRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: Record<string, unknown>;
}

/** The request for route `r` in fixture `f`'s realm (named through the route's realm source). */
export function aimedAt(r: RouteAccess, f: RealmFixture): AimedRequest {
  const [where, name] = (r.realm ?? 'params.realmId').split('.') as ['params' | 'query' | 'body', string];
  let url = r.url.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(paramValue(p, f))).replace(/\*/g, 'x');
  if (where === 'query') url += `${url.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(f.realmId)}`;
  const method = r.method as AimedRequest['method'];
  const hasBody = method !== 'GET' && method !== 'DELETE';
  const payload = where === 'body' ? { [name]: f.realmId } : hasBody ? {} : undefined;
  return { method, url, ...(payload ? { payload } : {}) };
}

export const isRead = (access: string) => /\.(query|get)$/.test(access);
export const permissionOf = (access: string) => access.split('.') as [string, string];
