/**
 * New password + confirmation with the strength meter of SPEC §5 (strong, medium, low) and
 * 'The passwords you entered do not match'.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@umbo/contracts/checks';
import { passwordStrength } from '@umbo/contracts/checks';
import { formValues, PlainField } from './plain-field';

type Translate = (key: string) => string;

/** The field errors of the pair, none when the two are fine. */
export function checkPasswords(form: HTMLFormElement, t: Translate): { password?: string; confirm?: string; value: string } {
  const v = formValues(form, 'password', 'confirm');
  const value = v.password!;
  let password: string | undefined;
  if (!value) password = t('validation.required');
  else if (value.length < LIMITS.passwordMin) password = t('validation.password_min');
  else if (new TextEncoder().encode(value).length > LIMITS.passwordMaxBytes) password = t('validation.password_max');
  const confirm = !v.confirm ? t('validation.required') : v.confirm !== value ? t('validation.password_mismatch') : undefined;
  return { password, confirm, value };
}

export function PasswordPair({ form, errors }: { form: string; errors: { password?: string | undefined; confirm?: string | undefined } }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const level = passwordStrength(value);
  return (
    <>
      <PlainField
        form={form}
        name="password"
        type="password"
        label={t('flows.new_password')}
        autoComplete="new-password"
        error={errors.password}
        onChange={(e) => setValue(e.currentTarget.value)}
        extra={
          value && (
            <div className={`strength strength--${level}`} data-testid={`${form}-strength`} aria-live="polite">
              <span className="strength__bar" aria-hidden="true">
                <span />
                <span />
                <span />
              </span>
              {t('flows.strength', { level: t(`flows.strength_${level}`) })}
            </div>
          )
        }
      />
      <PlainField form={form} name="confirm" type="password" label={t('flows.confirm_password')} autoComplete="new-password" error={errors.confirm} />
    </>
  );
}
