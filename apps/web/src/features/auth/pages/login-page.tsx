/**
 * /user/loginSSO and /login. Signs in with user name and password (plus the image captcha
 * when the realm asks for it), then goes to the `redirect` query (same-origin paths only) or
 * the personal center. Other sign-in methods (SMS, email code) join `methods` as tabs.
 */
import { ErrorCodes } from '@umbo/contracts/errors';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { projectConfig } from '../../../lib/project-config';
import { safeRedirectTarget } from '../../../lib/safe-redirect';
import { getToken } from '../../../lib/token';
import { getAuthOptions } from '../api/get-auth-options';
import { getCaptcha, type Captcha } from '../api/get-captcha';
import { useLogin } from '../api/login';
import { PasswordLoginForm, type PasswordLoginValues } from '../components/password-login-form';

/** OAuth front-door parameters (DESIGN.md §4); that flow is not served yet. */
const SSO_PARAMS = ['client_id', 'callback_uri', 'challenge'];

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirectTarget(params.get('redirect'), window.location.origin);
  const ssoRequested = SSO_PARAMS.some((p) => params.has(p));
  const realmId = params.get('realm_id') || projectConfig().realmId || undefined;
  const login = useLogin(() => navigate(target, { replace: true }));

  // SPEC §5: the captcha shows when the realm always wants one, or once the server asked
  // for it (4005, e.g. after repeated failures); then it stays.
  const [captchaShown, setCaptchaShown] = useState(false);
  const [captcha, setCaptcha] = useState<Captcha | undefined>();
  const refreshCaptcha = useCallback(() => {
    getCaptcha(realmId).then(setCaptcha, () => setCaptcha(undefined));
  }, [realmId]);

  useEffect(() => {
    getAuthOptions(realmId).then(
      (options) => options.captchaPolicy === 'always' && setCaptchaShown(true),
      // Unknown policy: the server still answers 4005 when a captcha is due.
      () => undefined,
    );
  }, [realmId]);
  useEffect(() => {
    if (login.error?.code === ErrorCodes.CAPTCHA_WRONG.code) setCaptchaShown(true);
  }, [login.error]);
  useEffect(() => {
    if (captchaShown) refreshCaptcha();
  }, [captchaShown, refreshCaptcha]);

  // Someone already signed in has nothing to do here.
  useEffect(() => {
    if (getToken() && !ssoRequested) navigate(target, { replace: true });
  }, [navigate, target, ssoRequested]);

  const submit = async (v: PasswordLoginValues) => {
    const ok = await login.submit({
      username: v.username,
      password: v.password,
      realm_id: realmId,
      ...(captchaShown && captcha ? { captcha: v.captcha, serialNo: captcha.serialNo } : {}),
    });
    // A captcha answers one attempt, right or wrong.
    if (!ok && captchaShown) refreshCaptcha();
  };

  const methods: { key: string; label: string; body: ReactNode }[] = [
    {
      key: 'password',
      label: t('login.tab_password'),
      body: (
        <PasswordLoginForm
          pending={login.pending}
          error={login.error?.message}
          captcha={captchaShown && captcha ? { image: captcha.image, serialNo: captcha.serialNo, onRefresh: refreshCaptcha } : undefined}
          onSubmit={(v) => void submit(v)}
        />
      ),
    },
  ];
  const [active, setActive] = useState(methods[0]!.key);

  return (
    <section className="login-card">
      {ssoRequested && (
        <div className="plain-alert plain-alert--info" role="status">
          {t('login.sso_unavailable')}
        </div>
      )}
      {methods.length > 1 && (
        <div className="login-card__methods" role="tablist">
          {methods.map((m) => (
            <button key={m.key} type="button" role="tab" aria-selected={m.key === active} onClick={() => setActive(m.key)}>
              {m.label}
            </button>
          ))}
        </div>
      )}
      {methods.find((m) => m.key === active)?.body}
      <div className="login-card__links">
        <Link className="plain-link" to="/user/recover">
          {t('login.forgot')}
        </Link>
        <Link className="plain-link" to="/user/register">
          {t('login.register')}
        </Link>
      </div>
    </section>
  );
}
