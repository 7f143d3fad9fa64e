import { changeOwnPasswordBody, otpEnableBody, updateAccountBody } from '@umbo/contracts/account';
import { zEmail, zUsername } from '@umbo/contracts/rules';
import type { RuleObject } from 'antd/es/form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkField, isRequired, rulesFor, type Translate } from './form-rules';

// Shows which phrase was chosen and with what: enough to check the mapping.
const t: Translate = (key, options) => (options ? `${key} ${JSON.stringify(options)}` : key);

/** Runs antd's rules the way Form does for one value: the first failing rule's message, or undefined. */
async function validate(rules: ReturnType<typeof rulesFor>, value: unknown): Promise<string | undefined> {
  for (const rule of rules as RuleObject[]) {
    if (rule.required && (value === undefined || value === '')) return String(rule.message);
    try {
      await rule.validator?.(rule, value, () => undefined);
    } catch (err) {
      return (err as Error).message;
    }
  }
  return undefined;
}

describe('antd rules from the contracts zod schemas', () => {
  it('shows the phrase the contract names for a value it refuses', async () => {
    const rules = rulesFor(zUsername, t);
    expect(await validate(rules, 'ab')).toBe('validation.username');
    expect(await validate(rules, 'has space')).toBe('validation.username');
    expect(await validate(rules, 'good_name')).toBeUndefined();
    expect(await validate(rulesFor(otpEnableBody.shape.firstCode, t), '12345')).toBe('validation.otp');
    expect(await validate(rulesFor(changeOwnPasswordBody.shape.newPassword, t), 'short')).toBe('validation.password_min');
  });

  it('makes a field required when the schema refuses a missing value, and only then', async () => {
    expect(isRequired(zUsername)).toBe(true);
    expect(isRequired(updateAccountBody.shape.username)).toBe(false);
    expect(rulesFor(zUsername, t)[0]).toEqual({ required: true, message: 'validation.required' });
    expect(await validate(rulesFor(zUsername, t), '')).toBe('validation.required');
    expect(await validate(rulesFor(updateAccountBody.shape.username, t), '')).toBeUndefined();
    expect(await validate(rulesFor(updateAccountBody.shape.username, t), 'x')).toBe('validation.username');
    expect(await validate(rulesFor(changeOwnPasswordBody.shape.oldPassword, t), undefined)).toBe('validation.required');
  });

  it('turns zod’s own English messages into the nearest phrase', () => {
    expect(checkField(zEmail, `${'a'.repeat(250)}@b.cd`, t)).toBe('validation.too_long {"max":254}');
    expect(checkField(z.string().min(3), 'ab', t)).toBe('validation.too_short {"min":3}');
    expect(checkField(z.string().min(1), '', t)).toBe('validation.required');
    expect(checkField(z.number(), 'x', t)).toBe('validation.invalid');
    expect(checkField(zEmail, 'a@b.cd', t)).toBeUndefined();
  });
});
