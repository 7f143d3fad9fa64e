/**
 * The server's image captcha (SPEC §5) and when a form shows it. A realm's captchaPolicy is
 * 'always' or 'after_failures'; under the latter the server answers 4005 once a captcha is due
 * (failures, or too many requests from one address), and from then on the form keeps it.
 * Each image answers one try, right or wrong, so every attempt that carried one loads another.
 */
import { ErrorCodes } from '@umbo/contracts/errors';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { msUntilServerTime } from '../../../lib/server-clock';
import { getCaptcha, type Captcha } from '../api/get-captcha';
import type { AuthOptions } from '../api/get-auth-options';
import { PlainField } from './plain-field';

export type CaptchaPolicy = AuthOptions['captchaPolicy'];

export interface CaptchaGate {
  /** the form shows the captcha field */
  shown: boolean;
  /** the current image; undefined while it loads or when it could not be loaded */
  captcha: Captcha | undefined;
  refresh: () => void;
  /** What to send with the answer typed: nothing while the captcha is not shown. */
  fields: (answer: string) => { captcha?: string; serialNo?: string };
  /**
   * After every attempt: a 4005 shows the captcha, and a shown one is spent. True when this
   * attempt made the captcha appear: the user typed nothing wrong, so the form should ask for
   * the answer rather than show 4005's "input error".
   */
  afterAttempt: (errorCode?: number) => boolean;
  /**
   * The field's error before a request, if any: `required` for an empty answer, and also
   * when the image never arrived (it is fetched again; there was nothing to answer yet);
   * 'expired' when the image outlived its 2 minutes (a new one is fetched).
   */
  check: (answer: string | undefined, required: string) => string | undefined;
  /** The image outlived its time (a sleeping tab): a new one is on its way; do not send. */
  stale: () => boolean;
  /** Set when the gate replaced an image that was about to expire: say so beside the field. */
  renewed: boolean;
}

/** A new image this long before the old one expires (issue 10): the answer typed meanwhile is not lost to a silent 4005. */
const RENEW_BEFORE_MS = 15_000;

/** `policy` undefined (options not loaded or failed): hidden until the server asks. */
export function useCaptchaGate(realmId: string | undefined, policy: CaptchaPolicy | undefined): CaptchaGate {
  const { t } = useTranslation();
  const [asked, setAsked] = useState(false);
  const shown = policy === 'always' || asked;
  const [captcha, setCaptcha] = useState<(Captcha & { deadline: number }) | undefined>();
  const [renewed, setRenewed] = useState(false);
  const load = useCallback(
    (auto: boolean) => {
      setRenewed(auto);
      getCaptcha(realmId).then(
        // The deadline on the monotonic clock: the server's expiresAt is on the server's clock
        // (2 minutes at most), which this computer's may not agree with (lib/server-clock.ts).
        (c) => setCaptcha({ ...c, deadline: performance.now() + Math.min(msUntilServerTime(c.expiresAt), 120_000) }),
        () => setCaptcha(undefined),
      );
    },
    [realmId],
  );
  const refresh = useCallback(() => load(false), [load]);
  useEffect(() => {
    if (shown) refresh();
  }, [shown, refresh]);
  // Renew before the image expires, so the answer is never to a dead image.
  useEffect(() => {
    if (!shown || !captcha) return;
    const timer = window.setTimeout(() => load(true), Math.max(captcha.deadline - performance.now() - RENEW_BEFORE_MS, 0));
    return () => window.clearTimeout(timer);
  }, [shown, captcha, load]);

  const stale = () => {
    if (!shown || !captcha || performance.now() < captcha.deadline) return false;
    load(true);
    return true;
  };
  const fields = (answer: string) => (shown && captcha ? { captcha: answer, serialNo: captcha.serialNo } : {});
  const afterAttempt = (errorCode?: number) => {
    // Becoming shown loads the first image (effect above); an image already shown is used up.
    if (shown) {
      refresh();
      return false;
    }
    if (errorCode !== ErrorCodes.CAPTCHA_WRONG.code) return false;
    setAsked(true);
    return true;
  };
  const check = (answer: string | undefined, required: string) => {
    if (!shown) return undefined;
    if (!captcha) {
      refresh();
      return required;
    }
    if (stale()) return t('login.captcha_expired');
    return answer ? undefined : required;
  };
  return { shown, captcha, refresh, fields, afterAttempt, check, stale, renewed };
}

export function CaptchaField({ form, gate, error }: { form: string; gate: CaptchaGate; error?: string | undefined }) {
  const { t } = useTranslation();
  if (!gate.shown) return null;
  const { captcha } = gate;
  return (
    <PlainField
      // A new image starts with an empty answer.
      key={captcha?.serialNo}
      form={form}
      name="captcha"
      label={t('login.captcha')}
      autoComplete="off"
      maxLength={16}
      error={error}
      extra={
        gate.renewed &&
        !error && (
          <div className="plain-hint" role="status" data-testid={`${form}-captcha-renewed`}>
            {t('login.captcha_expired')}
          </div>
        )
      }
      addon={
        <button type="button" className="captcha-image" onClick={gate.refresh} title={t('login.captcha_image')} data-testid={`${form}-captcha-image`}>
          {captcha && <img src={captcha.image} alt={t('login.captcha_image')} width={120} height={40} />}
        </button>
      }
    />
  );
}
