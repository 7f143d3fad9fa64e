/**
 * Joins the Ali Living link to every successful sign-in (password form, codes, ftoken): the
 * audit trail's `succeeded` is the one place each of them passes once a session is issued.
 * The hook runs after the event is recorded and only schedules work, so the sign-in's answer
 * and timing stay what they were.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import type { RealmSettingsSeen } from '../../audit/audit.service.js';
import type { SignInEvents } from '../../audit/sign-in-events.js';

/** `after` gets the realm's settings when the sign-in handed them over (it then reads none). */
export function linkAfterSignIn(events: SignInEvents, after: (account: Pick<Account, 'id' | 'realm_id'>, settings?: RealmSettingsSeen) => void): SignInEvents {
  return {
    ...events,
    async succeeded(method, account, request, trx, settings) {
      await events.succeeded(method, account, request, trx, settings);
      after(account, settings);
    },
  };
}
