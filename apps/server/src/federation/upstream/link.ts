/**
 * Which local account an upstream identity signs in as (issue 14):
 *   1. the account already linked to (realm, issuer, subject);
 *   2. else, only when the upstream says email_verified=true AND the realm allows linking by
 *      verified e-mail (linkVerifiedEmail, off by default), the person account with that
 *      address — linking on an unverified address is the account-takeover class of bugs in
 *      peers (an upstream that lets anyone claim any address would hand over the account);
 *   3. else a new person account, created just in time: no password, and the address only
 *      when verified and not already someone else's. An unverified address that matches an
 *      account is neither linked nor copied, and the answer is the same as for any new
 *      account, so the upstream is no oracle for which addresses have accounts.
 * One transaction: the identity row and the account appear together or not at all.
 */
import { USERNAME } from '@umbo/contracts/checks';
import type { Account, AccountRepo } from '../../accounts/accounts.repo.js';
import type { Clock } from '../../platform/clock.js';
import { newId, randomString } from '../../platform/crypto.js';
import type { Db, Transact } from '../../platform/db.js';
import type { FederatedIdentityRepo } from './federated-identities.repo.js';

export interface UpstreamClaims {
  iss: string;
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  preferred_username?: unknown;
}

export interface LinkDeps {
  accounts: AccountRepo;
  identities: FederatedIdentityRepo;
  transact: Transact;
  clock: Clock;
}

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The upstream's preferred_username when it is a valid, free user name; else a generated one. */
async function usernameFor(d: LinkDeps, realmId: string, c: UpstreamClaims, trx: Db): Promise<string> {
  const wanted = typeof c.preferred_username === 'string' ? c.preferred_username : '';
  if (USERNAME.test(wanted) && !(await d.accounts.findAccountByUsername(realmId, wanted, trx))) return wanted;
  for (;;) {
    const name = `u_${randomString(12, LOWER_ALNUM)}`;
    if (!(await d.accounts.findAccountByUsername(realmId, name, trx))) return name;
  }
}

export async function linkedAccount(
  d: LinkDeps,
  realmId: string,
  c: UpstreamClaims,
  linkVerifiedEmail: boolean,
): Promise<{ account: Account; created: boolean }> {
  return d.transact(async (trx) => {
    const known = await d.identities.findIdentity(realmId, c.iss, c.sub, trx);
    if (known) {
      const account = await d.accounts.findAccountById(realmId, known.account_id, trx);
      if (account) return { account, created: false };
    }
    const email = typeof c.email === 'string' && c.email.length <= 254 && c.email.includes('@') ? c.email : undefined;
    const verified = c.email_verified === true && !!email;
    const holder = email ? await d.accounts.findAccountByEmail(realmId, email, trx) : undefined;
    const now = d.clock.now();
    let account: Account;
    let created = false;
    if (holder && verified && linkVerifiedEmail && holder.kind === 'person') {
      account = holder;
    } else {
      account = await d.accounts.insertPerson(
        { realmId, username: await usernameFor(d, realmId, c, trx), passwordHash: null, email: verified && !holder ? email : null, now },
        trx,
      );
      created = true;
    }
    await d.identities.insertIdentity(
      { id: newId(), realm_id: realmId, issuer: c.iss, subject: c.sub, account_id: account.id, email: email ?? null, linked_at: now },
      trx,
    );
    return { account, created };
  });
}
