/**
 * Target (mobile or email), image captcha and the code with its "send" button: the part every
 * code flow shares. Asking for a code needs a captcha when the realm's policy says so (see
 * useCaptchaGate); a new code may be asked for after the server's resendAt (60 s), counted
 * down on the button.
 */
import { useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { localeState } from '../../../lib/i18n';
import { msUntilServerTime } from '../../../lib/server-clock';
import { sendCode, useCall, type Channel, type CodePurpose, type Phone } from '../api/flows';
import { DEFAULT_COUNTRY_CODE as DEFAULT_COUNTRY, isEmail, isMobileFor } from '@umbo/contracts/checks';
import { CaptchaField, useCaptchaGate, type CaptchaPolicy } from './captcha-field';
import { formValues, PlainField } from './plain-field';

type Translate = (key: never) => string;

/** The target typed in the form, or the error to show on its field. */
export function readTarget(form: HTMLFormElement, channel: Channel, t: Translate): { target?: Phone | { email: string }; error?: string } {
  const v = formValues(form, 'mobile', 'country', 'email');
  if (channel === 'email') {
    if (!v.email) return { error: t('validation.required' as never) };
    return isEmail(v.email) ? { target: { email: v.email } } : { error: t('validation.email' as never) };
  }
  const country = v.country || DEFAULT_COUNTRY;
  if (!v.mobile) return { error: t('validation.required' as never) };
  return isMobileFor(country, v.mobile) ? { target: { mobile: v.mobile, country } } : { error: t('validation.mobile' as never) };
}

export function useCodeSender() {
  const [serialNo, setSerialNo] = useState<string | undefined>();
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (seconds <= 0) return;
    const id = window.setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => window.clearTimeout(id);
  }, [seconds]);
  return { serialNo, seconds, setSerialNo, setSeconds };
}
export type CodeSender = ReturnType<typeof useCodeSender>;

interface Props {
  form: string;
  channel: Channel;
  purpose: CodePurpose;
  realmId: string | undefined;
  regions: string[];
  captchaPolicy: CaptchaPolicy | undefined;
  sender: CodeSender;
  /** the code field's error from the parent's submit check */
  codeError?: string | undefined;
  targetError?: string | undefined;
  onMessage: (m: { error?: string; info?: string }) => void;
}

export function CodeFields({ form, channel, purpose, realmId, regions, captchaPolicy, sender, codeError, targetError, onMessage }: Props) {
  const { t } = useTranslation();
  const gate = useCaptchaGate(realmId, captchaPolicy);
  const send = useCall((e) => e.message && onMessage({ error: e.message }));
  const [errors, setErrors] = useState<{ target?: string; captcha?: string }>({});

  const onSend = async (event: MouseEvent<HTMLButtonElement>) => {
    const el = event.currentTarget.form;
    if (!el) return;
    const { target, error } = readTarget(el, channel, t as Translate);
    const answer = formValues(el, 'captcha').captcha;
    const next = { target: error, captcha: gate.check(answer, t('validation.required')) };
    setErrors(next);
    if (!target || next.captcha) return;
    let failure: number | undefined;
    const issued = await send.run(
      () => sendCode(channel, target, purpose, gate.fields(answer ?? ''), realmId, localeState().tag),
      (e) => (failure = e.code),
    );
    if (gate.afterAttempt(failure)) onMessage({ info: t('login.captcha_needed') });
    if (issued) {
      sender.setSerialNo(issued.serialNo);
      // resendAt is on the server's clock (lib/server-clock.ts)
      sender.setSeconds(Math.max(1, Math.min(60, Math.ceil(msUntilServerTime(issued.resendAt) / 1000))));
      onMessage({ info: t('flows.code_sent') });
    }
  };

  const waiting = sender.seconds > 0;
  return (
    <>
      {channel === 'sms' ? (
        <PlainField
          form={form}
          name="mobile"
          label={t('flows.mobile')}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          maxLength={20}
          error={errors.target ?? targetError}
          addon={
            regions.length > 1 ? (
              <select name="country" className="plain-input plain-select" aria-label={t('flows.country')} defaultValue={regions[0]}>
                {regions.map((r) => (
                  <option key={r} value={r}>{`+${r}`}</option>
                ))}
              </select>
            ) : (
              <input type="hidden" name="country" value={regions[0] ?? DEFAULT_COUNTRY} />
            )
          }
        />
      ) : (
        <PlainField form={form} name="email" label={t('flows.email')} type="email" autoComplete="email" maxLength={254} error={errors.target ?? targetError} />
      )}
      <CaptchaField form={form} gate={gate} error={errors.captcha} />
      <PlainField
        form={form}
        name="code"
        label={t('flows.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={16}
        error={codeError}
        addon={
          <button
            type="button"
            className="plain-button send-code"
            onClick={(e) => void onSend(e)}
            disabled={waiting || send.pending}
            data-testid={`${form}-send-code`}
          >
            {waiting ? t('flows.resend_in', { seconds: sender.seconds }) : t('flows.send_code')}
          </button>
        }
      />
    </>
  );
}
