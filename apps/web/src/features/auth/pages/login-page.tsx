/**
 * /user/loginSSO and /login. Signs in with user name and password (plus the image captcha
 * when the realm asks for it), then goes to the `redirect` query (same-origin paths only) or
 * the personal center. SMS-code and email-code sign-in are tabs beside it when the realm's
 * options enable them. Started by an OAuth client (`challenge`, or SPEC §2's `client_id` +
 * `callback_uri`), it shows that client's note and links and, once signed in, goes back to
 * the client (lib/use-oauth-sign-in.ts). "Register an account" leads to the client's regist
 * url, else to the realm's backend registration (registUrl, issue 14), else to our own page.
 */
import { ErrorCodes } from '@umbo/contracts/errors';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { projectConfig } from '../../../lib/project-config';
import { safeRedirectTarget } from '../../../lib/safe-redirect';
import { getToken } from '../../../lib/token';
import { getAuthOptions, type AuthOptions } from '../api/get-auth-options';
import { useLogin, type LoginFailure } from '../api/login';
import { useCaptchaGate } from '../components/captcha-field';
import { CodeLoginForm } from '../components/code-login-form';
import { MethodTabs, type Method } from '../components/method-tabs';
import { PasswordLoginForm, type PasswordLoginValues } from '../components/password-login-form';
import { RealmLogo } from '../components/realm-logo';
import { SsoClient, SsoContinuing } from '../components/sso-client';
import { UpstreamSignIn } from '../components/upstream-sign-in';
import { httpUrl } from '../api/oauth-interaction';
import { withLoginSession } from '../lib/login-session';
import { oauthDoorOf, useOAuthSignIn } from '../lib/use-oauth-sign-in';

/** OAuth front-door parameters (DESIGN.md §4): with them, a signed-in visitor is not sent into the console. */
const SSO_PARAMS = ['client_id', 'callback_uri', 'challenge'];

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirectTarget(params.get('redirect'), window.location.origin);
  const ssoRequested = SSO_PARAMS.some((p) => params.has(p));
  const realmId = params.get('realm_id') || projectConfig().realmId || undefined;
  const query = params.toString();
  const door = useMemo(() => oauthDoorOf(new URLSearchParams(query), realmId), [query, realmId]);
  const sso = useOAuthSignIn(door);
  const login = useLogin(() => (door ? sso.continueAfterSignIn() : navigate(target, { replace: true })));

  const [options, setOptions] = useState<AuthOptions | undefined>();
  useEffect(() => {
    // Unknown options: the password form still works, and the server answers 4005 when a
    // captcha is due.
    getAuthOptions(realmId).then(setOptions, () => undefined);
  }, [realmId]);
  // SPEC §5: the captcha shows when the realm always wants one, or once the server asked.
  const gate = useCaptchaGate(realmId, options?.captchaPolicy);
  const [otpShown, setOtpShown] = useState(false);
  /** The OTP step of an attempt whose password was right: its ticket stands in for a captcha. */
  const [otpStep, setOtpStep] = useState<{ ticket: string; username: string; password: string } | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  /** issue 14: the upstream sign-in's OTP step is the whole form meanwhile */
  const [upstreamOtp, setUpstreamOtp] = useState(false);
  /** A failure the user has moved on from (left the OTP step). */
  const [dismissed, setDismissed] = useState<LoginFailure | undefined>();

  // Someone already signed in has nothing to do here.
  useEffect(() => {
    if (getToken() && !ssoRequested) navigate(target, { replace: true });
  }, [navigate, target, ssoRequested]);

  const submit = async (v: PasswordLoginValues) => {
    setNotice(undefined);
    const step = otpStep;
    // An answer to an image that has expired meanwhile: a new image, and say why (issue 10).
    if (!step && gate.stale()) {
      setNotice(t('login.captcha_expired'));
      return;
    }
    const failure = await login.submit(
      step
        ? { username: step.username, password: step.password, realm_id: realmId, otp: v.otp, otpTicket: step.ticket }
        : { username: v.username, password: v.password, realm_id: realmId, ...(otpShown ? { otp: v.otp } : {}), ...gate.fields(v.captcha) },
    );
    if (!failure) return;
    if (failure.otpTicket) {
      // Password right, OTP missing or wrong: the next try of this attempt is the OTP alone.
      setOtpStep({ ticket: failure.otpTicket, username: step?.username ?? v.username, password: step?.password ?? v.password });
      if (!step) gate.refresh();
      return;
    }
    if (step) {
      // The ticket is spent (expired, or its tries used up): back to the whole form, captcha included.
      setOtpStep(undefined);
      setOtpShown(true);
      gate.refresh();
      if (failure.code === ErrorCodes.CAPTCHA_WRONG.code) setNotice(t('login.captcha_needed'));
      return;
    }
    if (gate.afterAttempt(failure.code)) setNotice(t('login.captcha_needed'));
    if (failure.code === ErrorCodes.OTP_EMPTY.code || failure.code === ErrorCodes.OTP_FAILED.code) setOtpShown(true);
  };

  const leaveOtpStep = () => {
    setOtpStep(undefined);
    setDismissed(login.error);
  };

  /** SPEC §8: what the form shows of a failure. 1503 is the OTP step's prompt, not an error. */
  const failure = login.error;
  const errorText =
    !failure || failure === dismissed || notice || (otpStep && failure.code === ErrorCodes.OTP_EMPTY.code)
      ? undefined
      : // Already announced by the client's policy (no response, server error): 'Login failed' here.
        (failure.message ?? t('login.failed'));

  const signedIn = () => (door ? sso.continueAfterSignIn() : navigate(target, { replace: true }));
  const regions = options?.loginRegions ?? [];
  const enabled = (m: string) => !options || options.loginMethods.includes(m);
  const methods: Method[] = [];
  if (enabled('password'))
    methods.push({
      key: 'password',
      label: t('login.tab_password'),
      body: (
        <PasswordLoginForm
          pending={login.pending}
          error={errorText}
          info={notice ?? (gate.renewed && gate.shown ? t('login.captcha_expired') : undefined)}
          captcha={gate.shown && gate.captcha ? { image: gate.captcha.image, serialNo: gate.captcha.serialNo, onRefresh: gate.refresh } : undefined}
          otpShown={otpShown}
          otpStep={otpStep && { username: otpStep.username, onCancel: leaveOtpStep }}
          onSubmit={(v) => void submit(v)}
        />
      ),
    });
  // Code methods only once the options say so: a method that is off is refused anyway.
  if (options?.loginMethods.includes('sms'))
    methods.push({
      key: 'sms',
      label: t('flows.tab_sms'),
      body: <CodeLoginForm channel="sms" realmId={realmId} regions={regions} captchaPolicy={options.captchaPolicy} onSignedIn={signedIn} />,
    });
  if (options?.loginMethods.includes('email'))
    methods.push({
      key: 'email',
      label: t('flows.tab_email'),
      body: <CodeLoginForm channel="email" realmId={realmId} regions={regions} captchaPolicy={options.captchaPolicy} onSignedIn={signedIn} />,
    });

  return (
    <section className="login-card">
      <RealmLogo src={options?.logo} />
      {sso.info && <SsoClient info={sso.info} />}
      {sso.error && (
        <div className="plain-alert plain-alert--error" role="alert" data-testid="sso-error">
          {sso.error}
        </div>
      )}
      {sso.continuing ? <SsoContinuing /> : !sso.fatal && !upstreamOtp && <MethodTabs methods={methods} empty={t('flows.no_methods')} />}
      {/* issue 14: "Sign in with …" of the realm's upstream OpenID provider, and its way back */}
      {!sso.continuing && !sso.fatal && (
        <UpstreamSignIn
          realmId={realmId}
          challenge={params.get('challenge')}
          redirect={params.get('redirect')}
          onSignedIn={signedIn}
          onOtpStep={setUpstreamOtp}
        />
      )}
      <div className="login-card__links">
        <Link className="plain-link" to={withLoginSession('/retrieve')} data-testid="to-retrieve">
          {t('login.forgot')}
        </Link>
        {httpUrl(sso.info?.registUrl) ? (
          <a className="plain-link" href={httpUrl(sso.info?.registUrl)} rel="noreferrer" data-testid="to-register">
            {t('consent.register')}
          </a>
        ) : httpUrl(options?.registUrl) ? (
          // issue 14: a realm whose accounts live in an IT backend registers them there
          <a className="plain-link" href={httpUrl(options?.registUrl)} rel="noreferrer" data-testid="to-register">
            {t('login.register')}
          </a>
        ) : (
          <Link className="plain-link" to={withLoginSession('/user/register')} data-testid="to-register">
            {t('login.register')}
          </Link>
        )}
      </div>
    </section>
  );
}
