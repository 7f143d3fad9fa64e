/**
 * Sign-in by mobile + SMS code or email + email code (SPEC §2 "Login sub-forms"). When the
 * account has a one-time password the server answers 1503 (empty) or 1502 (wrong): the OTP
 * field appears and the same code goes again with it (the server keeps a code until the
 * one-time password is right).
 */
import { ErrorCodes } from '@umbo/contracts/errors';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { loginByCode, useCall, type Channel } from '../api/flows';
import type { CaptchaPolicy } from './captcha-field';
import { CodeFields, readTarget, useCodeSender } from './code-fields';
import { FormAlert, formValues, PlainField, SubmitButton } from './plain-field';

interface Props {
  channel: Channel;
  realmId: string | undefined;
  regions: string[];
  captchaPolicy: CaptchaPolicy | undefined;
  onSignedIn: () => void;
}

const OTP_CODES: number[] = [ErrorCodes.OTP_EMPTY.code, ErrorCodes.OTP_FAILED.code];

export function CodeLoginForm({ channel, realmId, regions, captchaPolicy, onSignedIn }: Props) {
  const { t } = useTranslation();
  const form = `login-${channel}`;
  const sender = useCodeSender();
  const [message, setMessage] = useState<{ error?: string; info?: string }>({});
  const [fieldErrors, setFieldErrors] = useState<{ target?: string; code?: string; otp?: string }>({});
  const [otpShown, setOtpShown] = useState(false);
  const call = useCall((e) => {
    if (e.code !== undefined && OTP_CODES.includes(e.code)) setOtpShown(true);
    setMessage({ error: e.message });
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const el = event.currentTarget;
    const { target, error } = readTarget(el, channel, t as never);
    const v = formValues(el, 'code', 'otp');
    const errors = {
      target: error,
      code: v.code ? undefined : t('validation.required'),
      otp: otpShown && !v.otp ? t('validation.required') : undefined,
    };
    setFieldErrors(errors);
    if (!target || errors.code || errors.otp) return;
    if (!sender.serialNo) {
      setMessage({ error: t('errors.code_invalid') });
      return;
    }
    setMessage({});
    const body = { ...target, code: v.code!, serialNo: sender.serialNo, ...(otpShown ? { otp: v.otp } : {}) };
    if (await call.run(() => loginByCode(channel, body, realmId))) onSignedIn();
  };

  return (
    <form className="plain-form" onSubmit={(e) => void submit(e)} noValidate data-testid={`${form}-form`}>
      <FormAlert error={message.error} info={message.info} testId={form} />
      <CodeFields
        form={form}
        channel={channel}
        purpose="login"
        realmId={realmId}
        regions={regions}
        captchaPolicy={captchaPolicy}
        sender={sender}
        targetError={fieldErrors.target}
        codeError={fieldErrors.code}
        onMessage={setMessage}
      />
      {otpShown && (
        <>
          <p className="plain-hint">{t('flows.otp_needed')}</p>
          <PlainField
            form={form}
            name="otp"
            label={t('flows.otp')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={16}
            error={fieldErrors.otp}
            autoFocus
          />
        </>
      )}
      <SubmitButton pending={call.pending} label={t('login.submit')} testId={`${form}-submit`} />
    </form>
  );
}
