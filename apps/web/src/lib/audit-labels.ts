/**
 * How audit events read in the console (the audit page and the account timeline share it):
 * an action's name in the reader's language, and its small facts as "key: value". Actions
 * the phrases do not know yet (another area's new event) read as recorded.
 */
import type { AuditEventView } from '@umbo/contracts/audit';
import type { TFunction } from 'i18next';

/** 'signin.password' → the phrase `audit.actions.signin_password`; a prefix 'role.' → `role_`. */
export function actionLabel(t: TFunction, action: string): string {
  return t(`audit.actions.${action.replace(/\./g, '_')}` as never, { defaultValue: action }) as string;
}

/** The event's facts, each as "key: value" with known keys and reasons translated. */
export function detailParts(t: TFunction, e: Pick<AuditEventView, 'action' | 'detail' | 'changes'>): string[] {
  // A sign-in's method is its action already ('signin.sms' says "SMS"): named only on OTP checks and locks.
  const facts = Object.entries(e.detail).filter(([key, value]) => !(key === 'method' && e.action === `signin.${String(value)}`));
  const parts = facts.map(([key, value]) => {
    const name = t(`audit.detail_keys.${key}` as never, { defaultValue: key }) as string;
    let shown = String(value);
    if (key === 'reason') shown = t(`audit.reasons.${shown}` as never, { defaultValue: shown }) as string;
    else if (key === 'method') shown = actionLabel(t, `signin.${shown}`);
    return `${name}: ${shown}`;
  });
  if (e.changes.length) parts.push(`${t('audit.changes')}: ${e.changes.join(', ')}`);
  return parts;
}
