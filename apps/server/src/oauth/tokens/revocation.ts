/**
 * Ending tokens before their time. A family's revocation ends its refresh tokens and every
 * access token minted from it (they carry its id, `gid`, which every validation checks), and
 * every family derived from it (token exchange, sub-client codes: parent_id).
 *
 * Used by: code reuse (AS-07), refresh-token replay (AS-09), the revocation endpoint (RFC 7009),
 * consent revocation (revokeFor {accountId, clientRef}), and the account's security events —
 * password reset or change, disable, administrator's "log out everywhere": composition
 * passes revokeAllOfAccount down to those services, which sit below the provider.
 *
 * Built from repositories and the audit only, so composition can make it before the services
 * that call it.
 */
import type { AuditService } from '../../audit/audit.service.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { FamilyRepo } from '../store/families.repo.js';
import type { RevokedTokenRepo } from '../store/revoked-tokens.repo.js';

/** Why a grant ended (stored on the family, ≤ 32 characters). */
export type RevokeReason =
  | 'code_reuse'
  | 'refresh_replay'
  | 'revocation'
  | 'consent_revoked'
  | 'password_reset'
  /** the user's own password change or "sign out everywhere else" */
  | 'account_security'
  /** an administrator's disable, temporary password or "log out all" */
  | 'admin_action'
  | 'client_change';

export interface RevokeTarget {
  realmId?: string | undefined;
  accountId?: string | undefined;
  /** the client's row id */
  clientRef?: string | undefined;
  familyId?: string | undefined;
  reason: RevokeReason;
}

export function createTokenRevocation(deps: {
  families: Pick<FamilyRepo, 'revoke'>;
  revokedTokens: Pick<RevokedTokenRepo, 'add'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
}) {
  const { families, clock } = deps;

  /**
   * Revokes the families named and those derived from them; answers how many. One audit event
   * (`oauth.grant.revoked`) when any were live — in `trx` when given, so a rolled-back password
   * change revokes nothing either.
   */
  async function revokeFor(t: RevokeTarget, trx?: Db): Promise<number> {
    const ids = await families.revoke({ realmId: t.realmId, accountId: t.accountId, clientRef: t.clientRef, familyId: t.familyId }, clock.now(), t.reason, trx);
    if (ids.length > 0 && t.realmId) {
      await deps.audit.record(
        {
          realmId: t.realmId,
          actor: null,
          action: 'oauth.grant.revoked',
          target: t.accountId ? { type: 'account', id: t.accountId, name: '' } : undefined,
          result: 'ok',
          detail: { reason: t.reason, count: ids.length },
        },
        trx,
      );
    }
    return ids.length;
  }

  /** Every grant of the account, every client. */
  function revokeAllOfAccount(accountId: string, reason: RevokeReason, trx?: Db, realmId?: string): Promise<number> {
    return revokeFor({ accountId, reason, realmId }, trx);
  }

  /** One access token (RFC 7009): its jti is refused until it would have expired anyway. */
  async function revokeAccessToken(realmId: string, jti: string, expiresAt: number, trx?: Db): Promise<void> {
    await deps.revokedTokens.add(realmId, jti, expiresAt, trx);
  }

  return { revokeFor, revokeAllOfAccount, revokeAccessToken };
}

export type TokenRevocation = ReturnType<typeof createTokenRevocation>;
