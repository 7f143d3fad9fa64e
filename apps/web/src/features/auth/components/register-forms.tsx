/** Registration sub-forms (SPEC §2): by email (captcha as the realm's policy wants) and by SMS code. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { localeState } from '../../../lib/i18n';
import { registerByEmail, registerBySms, useCall, type Registered } from '../api/flows';
import { isEmail } from '@umbo/contracts/checks';
import { CaptchaField, useCaptchaGate, type CaptchaPolicy } from './captcha-field';
import { CodeFields, readTarget, useCodeSender } from './code-fields';
import { PasswordPair, checkPasswords } from './password-pair';
import { FormAlert, formValues, PlainField, SubmitButton } from './plain-field';

const USERNAME = /^[A-Za-z0-9_]{3,24}$/;

interface Props {
  realmId: string | undefined;
  regions: string[];
  captchaPolicy: CaptchaPolicy | undefined;
  onRegistered: (r: Registered) => void;
}

type Errors = Partial<Record<'target' | 'captcha' | 'code' | 'username' | 'password' | 'confirm', string>>;

function useCommon() {
  const { t } = useTranslation();
  const [message, setMessage] = useState<{ error?: string; info?: string }>({});
  const [errors, setErrors] = useState<Errors>({});
  const call = useCall((e) => setMessage({ error: e.message }));
  /** username (optional) and the password pair */
  const checkAccount = (el: HTMLFormElement): { errors: Errors; username?: string; password: string } => {
    const pw = checkPasswords(el, t as never);
    const username = formValues(el, 'username').username || undefined;
    return {
      errors: { password: pw.password, confirm: pw.confirm, username: username && !USERNAME.test(username) ? t('validation.username') : undefined },
      username,
      password: pw.value,
    };
  };
  return { t, message, setMessage, errors, setErrors, call, checkAccount };
}

const hasErrors = (e: Errors) => Object.values(e).some(Boolean);

export function RegisterEmailForm({ realmId, captchaPolicy, onRegistered }: Props) {
  const { t, message, setMessage, errors, setErrors, call, checkAccount } = useCommon();
  const gate = useCaptchaGate(realmId, captchaPolicy);
  const form = 'register-email';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const el = event.currentTarget;
    const v = formValues(el, 'email', 'captcha');
    const account = checkAccount(el);
    const next: Errors = {
      ...account.errors,
      target: !v.email ? t('validation.required') : isEmail(v.email) ? undefined : t('validation.email'),
      captcha: gate.check(v.captcha, t('validation.required')),
    };
    setErrors(next);
    if (hasErrors(next)) return;
    setMessage({});
    const body = { email: v.email!, password: account.password, ...(account.username ? { username: account.username } : {}), ...gate.fields(v.captcha ?? '') };
    let failure: number | undefined;
    const done = await call.run(
      () => registerByEmail(body, realmId, localeState().tag),
      (e) => (failure = e.code),
    );
    if (done) onRegistered({ ...done, email: v.email! });
    else if (gate.afterAttempt(failure)) setMessage({ info: t('login.captcha_needed') });
  };

  return (
    <form className="plain-form" onSubmit={(e) => void submit(e)} noValidate data-testid={`${form}-form`}>
      <FormAlert error={message.error} info={message.info} testId={form} />
      <PlainField form={form} name="email" type="email" label={t('flows.email')} autoComplete="email" maxLength={254} error={errors.target} />
      <PlainField form={form} name="username" label={t('flows.username_optional')} autoComplete="username" maxLength={24} error={errors.username} />
      <PasswordPair form={form} errors={errors} />
      <CaptchaField form={form} gate={gate} error={errors.captcha} />
      <SubmitButton pending={call.pending} label={t('flows.register_submit')} testId={`${form}-submit`} />
    </form>
  );
}

export function RegisterSmsForm({ realmId, regions, captchaPolicy, onRegistered }: Props) {
  const { t, message, setMessage, errors, setErrors, call, checkAccount } = useCommon();
  const sender = useCodeSender();
  const form = 'register-sms';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const el = event.currentTarget;
    const { target, error } = readTarget(el, 'sms', t as never);
    const code = formValues(el, 'code').code!;
    const account = checkAccount(el);
    const next: Errors = { ...account.errors, target: error, code: code ? undefined : t('validation.required') };
    setErrors(next);
    if (hasErrors(next) || !target || !('mobile' in target)) return;
    if (!sender.serialNo) return setMessage({ error: t('errors.code_invalid') });
    setMessage({});
    const body = { ...target, code, serialNo: sender.serialNo, password: account.password, ...(account.username ? { username: account.username } : {}) };
    const done = await call.run(() => registerBySms(body, realmId));
    if (done) onRegistered(done);
  };

  return (
    <form className="plain-form" onSubmit={(e) => void submit(e)} noValidate data-testid={`${form}-form`}>
      <FormAlert error={message.error} info={message.info} testId={form} />
      <CodeFields
        form={form}
        channel="sms"
        purpose="register"
        realmId={realmId}
        regions={regions}
        captchaPolicy={captchaPolicy}
        sender={sender}
        targetError={errors.target}
        codeError={errors.code}
        onMessage={setMessage}
      />
      <PlainField form={form} name="username" label={t('flows.username_optional')} autoComplete="username" maxLength={24} error={errors.username} />
      <PasswordPair form={form} errors={errors} />
      <SubmitButton pending={call.pending} label={t('flows.register_submit')} testId={`${form}-submit`} />
    </form>
  );
}
