/**
 * The end of every code-based sign-in (SMS, email, ftoken): account state is told only now
 * that the credential was proven (DESIGN.md §5), then the same 7-day session as the password
 * form (SPEC §4). An account with a one-time password on must give it here too (1503 empty,
 * 1502 wrong), under the same lock as the password form (issue 8); `onWrongSecondFactor`
 * spends the code that opened the step. The ftoken hand-over skips it (`skipSecondFactor`):
 * its issuer was already signed in with a live session.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import type { RealmSettingsSeen } from '../../audit/audit.service.js';
import type { SignInMethod } from '../../audit/sign-in-events.js';
import { fail } from '../../platform/errors.js';
import type { IssuedSession } from '../sessions.service.js';
import type { FlowDeps, RequestMeta } from './deps.js';

export async function completeSignIn(
  d: Pick<FlowDeps, 'accounts' | 'sessions' | 'clock' | 'secondFactor' | 'signIns' | 'transact'>,
  account: Account,
  meta: RequestMeta & {
    /** the audit trail's name of this sign-in (issue 11) */
    method: SignInMethod;
    otp?: string | undefined;
    skipSecondFactor?: boolean;
    onWrongSecondFactor?: () => Promise<void>;
    afterSecondFactor?: () => Promise<unknown>;
    /** the realm's settings as the flow read them: the audit's taps read them no second time */
    settings?: RealmSettingsSeen | undefined;
  },
): Promise<{ account: Account; issued: IssuedSession }> {
  const proved = !meta.skipSecondFactor && (await d.secondFactor.proveAtSignIn(account, meta.otp, meta.ip, meta.onWrongSecondFactor));
  await meta.afterSecondFactor?.();
  if (account.disabled) throw fail('ACCOUNT_DISABLED');
  if (!account.activated) throw fail('EMAIL_NOT_ACTIVATED');
  const request = { ip: meta.ip, userAgent: meta.userAgent };
  // One commit for the session, the last sign-in and the audit rows, as on the password form:
  // all of them or none (a write transaction of its own each cost a WAL append and lock round).
  const issued = await d.transact(async (trx) => {
    const issued = await d.sessions.issue(account, request, { trx });
    await d.accounts.recordSignIn(account.realm_id, account.id, d.clock.now(), undefined, trx);
    if (proved) await d.signIns?.secondFactorPassed(meta.method, account, request, trx);
    await d.signIns?.succeeded(meta.method, account, request, trx, meta.settings);
    return issued;
  });
  return { account, issued };
}
