/**
 * "Sign in with …" of a realm whose OpenID sign-in through an upstream provider is on (issue
 * 14), under the local methods of the sign-in page. The button is a plain link to the
 * server's start route (a top-level navigation: the upstream's pages are not ours to frame);
 * the OAuth challenge and the console's `redirect` ride along so the sign-in continues where
 * it started. Back from the upstream, the page carries either a single-use hand-over ticket,
 * exchanged at once for the console's session (out of the address bar first, as an ftoken
 * is), or `upstream_error`, a catalogue code shown with its phrase. An account with a
 * one-time password gets the password form's OTP step (1503 keeps the ticket usable): the
 * same ticket goes again with the code; a wrong one stays in the step, a spent ticket ends it.
 */
import { ErrorCodes, errorByCode } from '@umbo/contracts/errors';
import type { LoginResult } from '@umbo/contracts/auth';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { setToken } from '../../../lib/token';
import { dropQueryParam, readQueryParam } from '../lib/take-query-param';
import { PasswordLoginForm } from './password-login-form';

interface Button {
  name: string;
  /** an https URL, '' for none */
  icon: string;
}

const auth = { authCall: true } as const;

export interface UpstreamSignInProps {
  realmId: string | undefined;
  /** the OAuth challenge of the page and its `redirect`, carried through the upstream */
  challenge?: string | null | undefined;
  redirect?: string | null | undefined;
  onSignedIn(): void;
  /** the OTP step is shown (true) or left (false): the page hides its other forms meanwhile */
  onOtpStep?(shown: boolean): void;
}

/** The exchange; `otp` once the account asked for it. Sets the console's token on success. */
async function exchange(ticket: string, otp?: string): Promise<void> {
  const r = await api.post<LoginResult>('/api/federation/oidc/exchange', otp === undefined ? { ticket } : { ticket, otp }, auth);
  setToken(r.token, r.expiresAt);
}

const codeOf = (err: unknown) => (err instanceof ApiError ? err.code : undefined);

function startUrl(realmId: string, challenge: string | null | undefined, redirect: string | null | undefined): string {
  const q = new URLSearchParams();
  if (challenge) q.set('challenge', challenge);
  if (redirect) q.set('redirect', redirect);
  const qs = q.toString();
  return `/api/federation/${encodeURIComponent(realmId)}/oidc/start${qs ? `?${qs}` : ''}`;
}

export function UpstreamSignIn({ realmId, challenge, redirect, onSignedIn, onOtpStep }: UpstreamSignInProps) {
  const { t } = useTranslation();
  const realm = realmId || 'master';
  const [ticket] = useState(() => readQueryParam('upstream_ticket'));
  const [errorCode] = useState(() => readQueryParam('upstream_error'));
  const [button, setButton] = useState<Button | null>(null);
  const [failure, setFailure] = useState<string | undefined>(() => {
    const def = errorCode ? errorByCode(Number(errorCode)) : undefined;
    return errorCode ? t(`errors.${def?.key ?? 'upstream_sign_in_failed'}` as never) : undefined;
  });
  const [busy, setBusy] = useState(Boolean(ticket));
  /** 1503: the ticket waits for the one-time password of this account */
  const [otpStep, setOtpStep] = useState<{ ticket: string; username: string } | undefined>();
  const [otpError, setOtpError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const started = useRef(false);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;
  const stepShown = useRef(onOtpStep);
  stepShown.current = onOtpStep;

  const leaveOtpStep = (message?: string) => {
    setOtpStep(undefined);
    setOtpError(undefined);
    setFailure(message);
    stepShown.current?.(false);
  };

  useEffect(() => {
    dropQueryParam('upstream_ticket');
    dropQueryParam('upstream_error');
    if (!ticket || started.current) return;
    started.current = true;
    exchange(ticket).then(
      () => signedIn.current(),
      (err: unknown) => {
        setBusy(false);
        if (codeOf(err) === ErrorCodes.OTP_EMPTY.code) {
          const data = err instanceof ApiError ? (err.errData as { username?: unknown } | undefined) : undefined;
          setOtpStep({ ticket, username: typeof data?.username === 'string' ? data.username : '' });
          stepShown.current?.(true);
          return;
        }
        setFailure(err instanceof Error ? err.message : t('errors.upstream_sign_in_failed'));
      },
    );
  }, [ticket, t]);

  const submitOtp = async (otp: string) => {
    if (!otpStep) return;
    setPending(true);
    setOtpError(undefined);
    try {
      await exchange(otpStep.ticket, otp);
      signedIn.current();
    } catch (err) {
      const code = codeOf(err);
      // Wrong (or locked): the ticket still holds, the next try stays in the step.
      if (code === ErrorCodes.OTP_FAILED.code || code === ErrorCodes.OTP_EMPTY.code) setOtpError(err instanceof Error ? err.message : undefined);
      // Spent (tries used up) or expired: the sign-in through the upstream starts again.
      else leaveOtpStep(t('errors.upstream_sign_in_failed'));
    } finally {
      setPending(false);
    }
  };

  useEffect(() => {
    let live = true;
    api.get<{ button: Button | null }>(`/api/federation/${encodeURIComponent(realm)}/oidc/button`, auth).then(
      (r) => live && setButton(r.button),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [realm]);

  if (otpStep) {
    return (
      <PasswordLoginForm
        pending={pending}
        error={otpError}
        captcha={undefined}
        otpStep={{ username: otpStep.username, onCancel: () => leaveOtpStep() }}
        onSubmit={(v) => void submitOtp(v.otp)}
      />
    );
  }
  if (busy) {
    return (
      <div className="plain-alert plain-alert--info" role="status" data-testid="upstream-signing-in">
        {t('login.upstream_signing_in')}
      </div>
    );
  }
  return (
    <>
      {failure && (
        <div className="plain-alert plain-alert--error" role="alert" data-testid="upstream-error">
          {failure}
        </div>
      )}
      {button && (
        <div className="upstream-sign-in" style={{ marginTop: 16, textAlign: 'center' }}>
          <div style={{ margin: '8px 0', opacity: 0.65 }}>{t('login.upstream_or')}</div>
          <a
            className="plain-button"
            href={startUrl(realm, challenge, redirect)}
            data-testid="upstream-sign-in"
            style={{
              display: 'inline-flex',
              alignItems: 'center',
              gap: 8,
              justifyContent: 'center',
              width: '100%',
              boxSizing: 'border-box',
              textDecoration: 'none',
            }}
          >
            {button.icon.startsWith('https://') && <img src={button.icon} alt="" width={20} height={20} />}
            <span>{t('login.upstream_button', { name: button.name })}</span>
          </a>
        </div>
      )}
    </>
  );
}
