/**
 * "Resend the activation mail" on the register-result screen (issue 10). The address is the
 * one just registered when the page knows it, else the visitor types it. The server answers
 * the same whether or not such an account waits, so the message says "if".
 */
import { isEmail } from '@umbo/contracts/checks';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { resendActivation, useCall } from '../api/flows';
import { localeState } from '../../../lib/i18n';
import { CaptchaField, useCaptchaGate, type CaptchaPolicy } from './captcha-field';
import { FormAlert, formValues, PlainField } from './plain-field';

export function ResendActivation({
  realmId,
  email,
  captchaPolicy,
}: {
  realmId: string | undefined;
  email: string | undefined;
  captchaPolicy: CaptchaPolicy | undefined;
}) {
  const { t } = useTranslation();
  const gate = useCaptchaGate(realmId, captchaPolicy);
  const call = useCall();
  const [errors, setErrors] = useState<{ email?: string | undefined; captcha?: string | undefined }>({});
  const [info, setInfo] = useState<string | undefined>();
  const form = 'resend-activation';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget, 'email', 'captcha');
    const address = email ?? v.email ?? '';
    const next = {
      email: email ? undefined : !address ? t('validation.required') : isEmail(address) ? undefined : t('validation.email'),
      captcha: gate.check(v.captcha, t('validation.required')),
    };
    setErrors(next);
    if (next.email || next.captcha) return;
    setInfo(undefined);
    let failure: number | undefined;
    const done = await call.run(
      () => resendActivation({ email: address, ...gate.fields(v.captcha ?? '') }, realmId, localeState().tag),
      (e) => (failure = e.code),
    );
    if (done) setInfo(t('flows.resend_activation_done', { email: address }));
    if (gate.afterAttempt(failure) && !done) setInfo(t('login.captcha_needed'));
  };

  return (
    <form className="plain-form plain-form--secondary" onSubmit={(e) => void submit(e)} noValidate data-testid={`${form}-form`}>
      <FormAlert error={call.error?.message} info={info} testId={form} />
      {!email && <PlainField form={form} name="email" label={t('flows.email')} type="email" autoComplete="email" maxLength={254} error={errors.email} />}
      <CaptchaField form={form} gate={gate} error={errors.captcha} />
      <button type="submit" className="plain-button plain-button--block" disabled={call.pending} aria-busy={call.pending} data-testid={`${form}-submit`}>
        {t('flows.resend_activation')}
      </button>
    </form>
  );
}
