/**
 * Find-back sub-forms (SPEC §2): a reset link by email (captcha as the realm's policy wants),
 * or SMS code + new password.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { localeState } from '../../../lib/i18n';
import { retrieveByEmail, retrieveBySms, useCall } from '../api/flows';
import { isEmail } from '@umbo/contracts/checks';
import { CaptchaField, useCaptchaGate, type CaptchaPolicy } from './captcha-field';
import { CodeFields, readTarget, useCodeSender } from './code-fields';
import { checkPasswords, PasswordPair } from './password-pair';
import { FormAlert, formValues, PlainField, SubmitButton } from './plain-field';

interface Props {
  realmId: string | undefined;
  regions: string[];
  captchaPolicy: CaptchaPolicy | undefined;
}

type Errors = Partial<Record<'target' | 'captcha' | 'code' | 'password' | 'confirm', string>>;
const hasErrors = (e: Errors) => Object.values(e).some(Boolean);

/** The answer is the same whether or not an account uses the address (DESIGN.md §5). */
export function RetrieveEmailForm({ realmId, captchaPolicy }: Props) {
  const { t } = useTranslation();
  const form = 'retrieve-email';
  const gate = useCaptchaGate(realmId, captchaPolicy);
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<{ error?: string; info?: string }>({});
  const call = useCall((e) => setMessage({ error: e.message }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget, 'email', 'captcha');
    const next: Errors = {
      target: !v.email ? t('validation.required') : isEmail(v.email) ? undefined : t('validation.email'),
      captcha: gate.check(v.captcha, t('validation.required')),
    };
    setErrors(next);
    if (hasErrors(next)) return;
    setMessage({});
    let failure: number | undefined;
    const ok = await call.run(
      () => retrieveByEmail({ email: v.email!, ...gate.fields(v.captcha ?? '') }, realmId, localeState().tag),
      (e) => (failure = e.code),
    );
    if (gate.afterAttempt(failure)) setMessage({ info: t('login.captcha_needed') });
    if (ok) setMessage({ info: t('flows.retrieve_sent') });
  };

  return (
    <form className="plain-form" onSubmit={(e) => void submit(e)} noValidate data-testid={`${form}-form`}>
      <FormAlert error={message.error} info={message.info} testId={form} />
      <PlainField form={form} name="email" type="email" label={t('flows.email')} autoComplete="email" maxLength={254} error={errors.target} />
      <CaptchaField form={form} gate={gate} error={errors.captcha} />
      <SubmitButton pending={call.pending} label={t('flows.retrieve_submit')} testId={`${form}-submit`} />
    </form>
  );
}

export function RetrieveSmsForm({ realmId, regions, captchaPolicy }: Props) {
  const { t } = useTranslation();
  const form = 'retrieve-sms';
  const sender = useCodeSender();
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<{ error?: string; info?: string }>({});
  const [done, setDone] = useState(false);
  const call = useCall((e) => setMessage({ error: e.message }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const el = event.currentTarget;
    const { target, error } = readTarget(el, 'sms', t as never);
    const code = formValues(el, 'code').code!;
    const pw = checkPasswords(el, t as never);
    const next: Errors = { target: error, code: code ? undefined : t('validation.required'), password: pw.password, confirm: pw.confirm };
    setErrors(next);
    if (hasErrors(next) || !target || !('mobile' in target)) return;
    if (!sender.serialNo) return setMessage({ error: t('errors.code_invalid') });
    setMessage({});
    if (await call.run(() => retrieveBySms({ ...target, code, serialNo: sender.serialNo!, password: pw.value }, realmId))) setDone(true);
  };

  if (done)
    return (
      <div className="plain-alert plain-alert--info" role="status" data-testid={`${form}-done`}>
        {t('flows.reset_done')}
      </div>
    );
  return (
    <form className="plain-form" onSubmit={(e) => void submit(e)} noValidate data-testid={`${form}-form`}>
      <FormAlert error={message.error} info={message.info} testId={form} />
      <CodeFields
        form={form}
        channel="sms"
        purpose="retrieve"
        realmId={realmId}
        regions={regions}
        captchaPolicy={captchaPolicy}
        sender={sender}
        targetError={errors.target}
        codeError={errors.code}
        onMessage={setMessage}
      />
      <PasswordPair form={form} errors={errors} />
      <SubmitButton pending={call.pending} label={t('flows.reset_submit')} testId={`${form}-submit`} />
    </form>
  );
}
