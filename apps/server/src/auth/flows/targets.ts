/** Turning form input into code targets, with the realm's method and region rules. */
import type { CodePurpose } from '@umbo/contracts';
import { normaliseEmail } from '../../accounts/accounts.repo.js';
import { normaliseMobile } from '../../accounts/phone.js';
import { fail } from '../../platform/errors.js';
import { assertMethod, assertRegion, type FlowSettings, type MethodList } from '../../realms/realm-policy.js';

const LIST_OF: Record<CodePurpose, MethodList> = {
  login: 'backend_support_login_method',
  register: 'backend_support_regist_method',
  retrieve: 'backend_support_find_back_method',
};

/** E.164 number for a phone flow that the realm allows, or 1009 / 1014. */
export function phoneTarget(settings: FlowSettings, purpose: CodePurpose, mobile: string, country?: string): string {
  assertMethod(settings, LIST_OF[purpose], 'sms');
  const e164 = normaliseMobile(mobile, country);
  if (!e164) throw fail('INVALID_PARAMETER', { field: 'mobile', reason: 'validation.mobile' });
  assertRegion(settings, e164);
  return e164;
}

export function emailTarget(settings: FlowSettings, purpose: CodePurpose, email: string): string {
  assertMethod(settings, LIST_OF[purpose], 'email');
  return normaliseEmail(email);
}
