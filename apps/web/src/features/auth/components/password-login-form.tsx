/**
 * The user name + password sub-form (SPEC §2 "Login sub-forms"), plain HTML styled like antd:
 * antd's Form alone would cost the sign-in page ~55 KiB gzip.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@umbo/contracts/checks';
import { PlainField, SubmitButton } from './plain-field';

export interface PasswordLoginValues {
  username: string;
  password: string;
  captcha: string;
  otp: string;
}

interface Props {
  pending: boolean;
  error: string | undefined;
  /** a notice that is not a failure (the captcha has just appeared) */
  info?: string | undefined;
  /** The image captcha, when the realm asks for one (SPEC §5); clicking it loads another. */
  captcha: { image: string; serialNo: string; onRefresh: () => void } | undefined;
  /** The account has a one-time password: the server answered 1503 (empty) or 1502 (wrong). */
  otpShown?: boolean;
  /**
   * The second step of an attempt whose password was right (issue 10): only the one-time
   * password is asked, with a prompt rather than an error, and no second captcha.
   */
  otpStep?: { username: string; onCancel: () => void } | undefined;
  onSubmit: (values: PasswordLoginValues) => void;
}

type FieldErrors = Partial<Record<keyof PasswordLoginValues, string>>;

export function PasswordLoginForm({ pending, error, info, captcha, otpShown, otpStep, onSubmit }: Props) {
  const { t } = useTranslation();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values = {
      username: String(data.get('username') ?? '').trim(),
      password: String(data.get('password') ?? ''),
      captcha: String(data.get('captcha') ?? '').trim(),
      otp: String(data.get('otp') ?? '').trim(),
    };
    const errors: FieldErrors = {};
    if (otpStep) {
      if (!values.otp) errors.otp = t('validation.required');
      setFieldErrors(errors);
      if (!errors.otp) onSubmit(values);
      return;
    }
    if (!values.username) errors.username = t('validation.required');
    if (!values.password) errors.password = t('validation.required');
    else if (new TextEncoder().encode(values.password).length > LIMITS.passwordMaxBytes) errors.password = t('validation.password_max');
    if (captcha && !values.captcha) errors.captcha = t('validation.required');
    if (otpShown && !values.otp) errors.otp = t('validation.required');
    setFieldErrors(errors);
    if (Object.keys(errors).length === 0) onSubmit(values);
  };

  if (otpStep)
    return (
      // A form of its own (key): nothing typed into the first step's inputs carries over.
      <form key="otp-step" className="plain-form" onSubmit={submit} noValidate data-testid="login-otp-form">
        {error && (
          <div className="plain-alert plain-alert--error" role="alert" data-testid="login-error">
            {error}
          </div>
        )}
        <p className="plain-hint" id="login-otp-prompt" data-testid="login-otp-prompt">
          {t('login.otp_prompt', { username: otpStep.username })}
        </p>
        <PlainField
          form="login"
          name="otp"
          label={t('flows.otp')}
          autoComplete="one-time-code"
          maxLength={16}
          error={fieldErrors.otp}
          aria-describedby="login-otp-prompt"
          autoFocus
        />
        <SubmitButton pending={pending} label={t('login.submit')} testId="login-submit" />
        <button type="button" className="plain-link-button" onClick={otpStep.onCancel} data-testid="login-otp-cancel">
          {t('login.otp_other_account')}
        </button>
      </form>
    );

  return (
    <form key="password" className="plain-form" onSubmit={submit} noValidate data-testid="login-form">
      {error && (
        <div className="plain-alert plain-alert--error" role="alert" data-testid="login-error">
          {error}
        </div>
      )}
      {!error && info && (
        <div className="plain-alert plain-alert--info" role="status" data-testid="login-info">
          {info}
        </div>
      )}
      <PlainField form="login" name="username" label={t('login.username')} autoComplete="username" maxLength={120} error={fieldErrors.username} autoFocus />
      <PlainField form="login" name="password" label={t('login.password')} type="password" autoComplete="current-password" error={fieldErrors.password} />
      {captcha && (
        <PlainField
          // Keyed by the image: a new captcha starts with an empty answer.
          key={captcha.serialNo}
          form="login"
          name="captcha"
          label={t('login.captcha')}
          autoComplete="off"
          maxLength={16}
          error={fieldErrors.captcha}
          addon={
            <button type="button" className="captcha-image" onClick={captcha.onRefresh} title={t('login.captcha_image')} data-testid="captcha-image">
              <img src={captcha.image} alt={t('login.captcha_image')} width={120} height={40} />
            </button>
          }
        />
      )}
      {otpShown && <PlainField form="login" name="otp" label={t('flows.otp')} autoComplete="one-time-code" maxLength={16} error={fieldErrors.otp} autoFocus />}
      <SubmitButton pending={pending} label={t('login.submit')} testId="login-submit" />
    </form>
  );
}
