/**
 * Helpers of the person account suites (issue 11): paths, an administrator of one realm,
 * persons made in bulk through the repository (fast: no password hash), the realm's person
 * count and its account.* audit events.
 */
import crypto from 'node:crypto';
import type { Harness } from '../test/harness.js';
import { bindRole, createPerson, randomName, tokenFor } from '../test/kit.js';

export const personsPath = (realmId: string) => `/api/users/realms/${realmId}/accounts`;
export const personPath = (realmId: string, id: string) => `${personsPath(realmId)}/${id}`;

/** A person of `realmId` holding `role` there (realm-admin, realm-viewer), and its token. */
export async function roleHolder(h: Harness, realmId: string, role: 'realm-admin' | 'realm-viewer' | 'admin') {
  const person = await createPerson(h, { realmId });
  await bindRole(h, person, role);
  return { person, token: await tokenFor(h, person) };
}

/** `n` persons without passwords in one statement batch; answers their ids in insertion order. */
export async function seedPersons(
  h: Harness,
  realmId: string,
  n: number,
  each: (i: number) => { username?: string; email?: string | null; phone?: string | null; disabled?: boolean; activated?: boolean; now?: number } = () => ({}),
): Promise<string[]> {
  const people = Array.from({ length: n }, (_, i) => {
    const o = each(i);
    return {
      realmId,
      username: o.username ?? `${randomName('p')}${i}`,
      passwordHash: null,
      email: o.email ?? null,
      phone: o.phone ?? null,
      disabled: o.disabled,
      activated: o.activated,
      now: o.now ?? h.clock.now(),
    };
  });
  await h.ctx.repos.accounts.insertPersons(people);
  const rows = await h.ctx.db.selectFrom('accounts').select(['id', 'username']).where('realm_id', '=', realmId).execute();
  const byName = new Map(rows.map((r) => [r.username, r.id]));
  return people.map((p) => byName.get(p.username)!);
}

export async function personCount(h: Harness, realmId: string): Promise<number> {
  const row = await h.ctx.db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('realm_id', '=', realmId)
    .where('kind', '=', 'person')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The realm's account.* audit events, oldest first. */
export async function accountEvents(h: Harness, realmId: string) {
  const page = await h.ctx.services.audit.list({ realmId, limit: 100, action: 'account.' });
  return page.items.reverse();
}

export const uniqueMobile = () => `139${crypto.randomInt(10_000_000, 99_999_999)}`;
