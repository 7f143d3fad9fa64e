/**
 * The user name + password sub-form (SPEC §2 "Login sub-forms"), plain HTML styled like antd:
 * antd's Form alone would cost the sign-in page ~55 KiB gzip.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '../../../lib/limits';

export interface PasswordLoginValues {
  username: string;
  password: string;
  captcha: string;
}

interface Props {
  pending: boolean;
  error: string | undefined;
  /** The image captcha, when the realm asks for one (SPEC §5); clicking it loads another. */
  captcha: { image: string; serialNo: string; onRefresh: () => void } | undefined;
  onSubmit: (values: PasswordLoginValues) => void;
}

type FieldErrors = Partial<Record<keyof PasswordLoginValues, string>>;

export function PasswordLoginForm({ pending, error, captcha, onSubmit }: Props) {
  const { t } = useTranslation();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values = {
      username: String(data.get('username') ?? '').trim(),
      password: String(data.get('password') ?? ''),
      captcha: String(data.get('captcha') ?? '').trim(),
    };
    const errors: FieldErrors = {};
    if (!values.username) errors.username = t('validation.required');
    if (!values.password) errors.password = t('validation.required');
    else if (new TextEncoder().encode(values.password).length > LIMITS.passwordMaxBytes) errors.password = t('validation.password_max');
    if (captcha && !values.captcha) errors.captcha = t('validation.required');
    setFieldErrors(errors);
    if (Object.keys(errors).length === 0) onSubmit(values);
  };

  return (
    <form className="plain-form" onSubmit={submit} noValidate data-testid="login-form">
      {error && (
        <div className="plain-alert plain-alert--error" role="alert" data-testid="login-error">
          {error}
        </div>
      )}
      <Field name="username" label={t('login.username')} type="text" autoComplete="username" error={fieldErrors.username} autoFocus />
      <Field name="password" label={t('login.password')} type="password" autoComplete="current-password" error={fieldErrors.password} />
      {captcha && (
        // Keyed by the image: a new captcha starts with an empty answer.
        <Field key={captcha.serialNo} name="captcha" label={t('login.captcha')} type="text" autoComplete="off" error={fieldErrors.captcha}>
          <button type="button" className="captcha-image" onClick={captcha.onRefresh} title={t('login.captcha_image')} data-testid="captcha-image">
            <img src={captcha.image} alt={t('login.captcha_image')} width={120} height={40} />
          </button>
        </Field>
      )}
      <button type="submit" className="plain-button plain-button--primary plain-button--block" disabled={pending} aria-busy={pending} data-testid="login-submit">
        {pending && <span className="plain-button__spinner" aria-hidden="true" />}
        {t('login.submit')}
      </button>
    </form>
  );
}

interface FieldProps {
  name: keyof PasswordLoginValues;
  label: string;
  type: 'text' | 'password';
  autoComplete: string;
  error: string | undefined;
  autoFocus?: boolean;
  /** Shown beside the input (the captcha image). */
  children?: ReactNode;
}

function Field({ name, label, type, autoComplete, error, autoFocus, children }: FieldProps) {
  const id = `login-${name}`;
  return (
    <div className={error ? 'plain-field plain-field--error' : 'plain-field'}>
      <label className="plain-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="plain-field__control">
        <input
          id={id}
          name={name}
          type={type}
          className="plain-input"
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          maxLength={name === 'username' ? 120 : name === 'captcha' ? 16 : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {children}
      </div>
      {error && (
        <div className="plain-field__error" id={`${id}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}
