/**
 * Shadow accounts (issue 14): once the backend said yes, the user has a local account of the
 * realm, linked to the backend's user id, so sessions, OAuth, service accounts and
 * certificates work as for any account. With useOriginID the backend's id is the account id.
 * No password is ever stored for it (password_hash stays null: the local password form can
 * never succeed for it). Name, e-mail, phone and the disabled flag follow the backend's answer.
 */
import { normaliseMobile } from '../../accounts/phone.js';
import type { Account, AccountRepo } from '../../accounts/accounts.repo.js';
import type { Clock } from '../../platform/clock.js';
import { isUniqueViolation, type Transact } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import type { ItUser } from './ecogloble.js';
import type { ShadowLinkRepo } from './shadow.repo.js';

export interface ShadowDeps {
  accounts: AccountRepo;
  links: ShadowLinkRepo;
  transact: Transact;
  clock: Clock;
}

/** The backend's phone in our form (E.164), or none when it cannot be read as a number. */
export function phoneOf(u: ItUser): string | null {
  if (!u.phone) return null;
  return normaliseMobile(u.phone, u.countryCode ?? undefined) ?? null;
}

export function createShadowAccounts(d: ShadowDeps) {
  async function refresh(account: Account, u: ItUser): Promise<Account> {
    const patch = {
      username: u.username,
      email: u.email ?? null,
      phone: phoneOf(u),
      disabled: u.disabled ? 1 : 0,
    };
    const same = account.username === patch.username && account.email === patch.email && account.phone === patch.phone && account.disabled === patch.disabled;
    if (same) return account;
    try {
      // renames go through the repository so username_norm / email_norm stay in step
      await d.transact(async (trx) => {
        const now = d.clock.now();
        if (account.username !== patch.username) await d.accounts.renameAccount(account.realm_id, account.id, account.username_norm, patch.username, now, trx);
        await d.accounts.setPersonAddresses(account.realm_id, account.id, { email: patch.email, phone: patch.phone }, now, trx);
        await d.accounts.updateAccount(account.realm_id, account.id, { disabled: patch.disabled, updated_at: now }, trx);
      });
    } catch (err) {
      // another local account holds the new name or address: the whole refresh is rolled back, sign in anyway
      if (!isUniqueViolation(err)) throw err;
    }
    return (await d.accounts.findAccountById(account.realm_id, account.id)) ?? account;
  }

  /** The shadow account of backend user `u` in `realmId`, created on first sight. */
  async function shadowFor(realmId: string, u: ItUser, region: string, useOriginID: boolean): Promise<Account> {
    const link = await d.links.findLinkedAccount(realmId, u.userId);
    if (link?.account) {
      if (link.region !== region) await d.links.setRegion(realmId, u.userId, region, d.clock.now());
      return refresh(link.account, u);
    }
    const now = d.clock.now();
    try {
      return await d.transact(async (trx) => {
        const account = await d.accounts.insertPerson(
          {
            id: useOriginID ? u.userId : undefined,
            realmId,
            username: u.username,
            email: u.email ?? null,
            phone: phoneOf(u),
            passwordHash: null,
            disabled: u.disabled ?? false,
            registArea: u.countryCode ?? '',
            now,
          },
          trx,
        );
        await d.links.insertLink({ realm_id: realmId, backend_user_id: u.userId, account_id: account.id, region, created_at: now, updated_at: now }, trx);
        return account;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // a parallel first sign-in of the same user won: use its account
      const won = await d.links.findLink(realmId, u.userId);
      const account = won && (await d.accounts.findAccountById(realmId, won.account_id));
      if (account) return account;
      // a local account of the realm (or, with useOriginID, any account) already holds this
      // name, address or id: never linked silently (account takeover)
      throw fail('USER_EXISTS', { reason: 'shadow_conflict' });
    }
  }

  return { shadowFor };
}

export type ShadowAccounts = ReturnType<typeof createShadowAccounts>;
