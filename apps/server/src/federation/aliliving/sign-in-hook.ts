/**
 * Joins the Ali Living link to every successful sign-in (password form, codes, ftoken): the
 * audit trail's `succeeded` is the one place each of them passes once a session is issued.
 * The hook runs after the event is recorded and only schedules work, so the sign-in's answer
 * and timing stay what they were.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import type { SignInEvents } from '../../audit/sign-in-events.js';

export function linkAfterSignIn(events: SignInEvents, after: (account: Pick<Account, 'id' | 'realm_id'>) => void): SignInEvents {
  return {
    ...events,
    async succeeded(method, account, request, trx) {
      await events.succeeded(method, account, request, trx);
      after(account);
    },
  };
}
