/** One labelled input of the light public forms, styled like antd's Form.Item. */
import type { InputHTMLAttributes, ReactNode } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  /** the form's prefix; the input's id is `${form}-${name}` */
  form: string;
  name: string;
  label: string;
  error?: string | undefined;
  /** shown beside the input (captcha image, send-code button) */
  addon?: ReactNode;
  /** shown under the input (strength meter) */
  extra?: ReactNode;
}

export function PlainField({ form, name, label, error, addon, extra, ...input }: Props) {
  const id = `${form}-${name}`;
  return (
    <div className={error ? 'plain-field plain-field--error' : 'plain-field'}>
      <label className="plain-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="plain-field__control">
        <input
          id={id}
          name={name}
          className="plain-input"
          type="text"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...input}
        />
        {addon}
      </div>
      {extra}
      {error && (
        <div className="plain-field__error" id={`${id}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}

export function FormAlert({ error, info, testId }: { error?: string | undefined; info?: string | undefined; testId: string }) {
  if (error)
    return (
      <div className="plain-alert plain-alert--error" role="alert" data-testid={`${testId}-error`}>
        {error}
      </div>
    );
  if (info)
    return (
      <div className="plain-alert plain-alert--info" role="status" data-testid={`${testId}-info`}>
        {info}
      </div>
    );
  return null;
}

export function SubmitButton({ pending, label, testId }: { pending: boolean; label: string; testId: string }) {
  return (
    <button type="submit" className="plain-button plain-button--primary plain-button--block" disabled={pending} aria-busy={pending} data-testid={testId}>
      {pending && <span className="plain-button__spinner" aria-hidden="true" />}
      {label}
    </button>
  );
}

/** Reads trimmed text fields of a submitted form (passwords untrimmed). */
export function formValues(form: HTMLFormElement, ...names: string[]): Record<string, string> {
  const data = new FormData(form);
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = String(data.get(n) ?? '');
    out[n] = /password/i.test(n) ? v : v.trim();
  }
  return out;
}
