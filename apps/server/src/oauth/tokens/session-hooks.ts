/**
 * A-16 (ASVS 7.4.2–3): when an account's sessions all end — password reset or change,
 * disable, an administrator's "log out all", the user's "sign out everywhere else" — its OAuth
 * grants end with them: every refresh token is refused and every access token inactive.
 *
 * Those services sit below the provider (auth, me, directory), so composition hands them their
 * usual session store wrapped here: the same calls, and each "end every session of the
 * account" also revokes the account's token families, in the same transaction.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import type { SessionRepo } from '../../auth/sessions.repo.js';
import type { Db } from '../../platform/db.js';
import type { RevokeReason, TokenRevocation } from './revocation.js';

/** The sessions repository whose revokeAccountSessions also revokes the account's grants. */
export function sessionsEndingGrants<T extends Pick<SessionRepo, 'revokeAccountSessions'>>(sessions: T, revocation: TokenRevocation, reason: RevokeReason): T {
  return {
    ...sessions,
    async revokeAccountSessions(realmId: string, accountId: string, now: number, exceptId?: string, trx?: Db): Promise<number> {
      const ended = await sessions.revokeAccountSessions(realmId, accountId, now, exceptId, trx);
      await revocation.revokeFor({ realmId, accountId, reason }, trx);
      return ended;
    },
  };
}

/** The sessions service whose revokeAll (password reset) also revokes the account's grants. */
export function sessionServiceEndingGrants<T extends { revokeAll(a: Account, exceptId?: string): Promise<number> }>(
  sessions: T,
  revocation: TokenRevocation,
  reason: RevokeReason,
): T {
  return {
    ...sessions,
    async revokeAll(a: Account, exceptId?: string): Promise<number> {
      const ended = await sessions.revokeAll(a, exceptId);
      await revocation.revokeFor({ realmId: a.realm_id, accountId: a.id, reason });
      return ended;
    },
  };
}
