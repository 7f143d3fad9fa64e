/**
 * /user/consent?challenge=…: the user approves or refuses what an application asks (AS-28),
 * after /user/loginSSO proved them with the console's session. Either answer sends the browser
 * to the URL the server returns (the application's registered redirect URI, with a code or
 * with access_denied). Scopes are described in words; the client's name is shown as text.
 */
import type { InteractionInfo } from '@umbo/contracts/oauth-interaction';
import { SIGN_IN_PATH } from '@umbo/contracts/routes';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getToken } from '../../../lib/token';
import { getInteraction, interactionConsent, leaveTo } from '../api/oauth-interaction';
import { Loading } from '../components/public-card';
import { SsoContinuing } from '../components/sso-client';
import { readQueryParam } from '../lib/take-query-param';
import '../components/sso.css';

const SCOPE_KEYS = {
  openid: 'consent.scope_openid',
  profile: 'consent.scope_profile',
  email: 'consent.scope_email',
  phone: 'consent.scope_phone',
  offline_access: 'consent.scope_offline_access',
} as const;

export default function ConsentPage() {
  const { t } = useTranslation();
  const [challenge] = useState(() => readQueryParam('challenge'));
  const [info, setInfo] = useState<InteractionInfo | undefined>();
  const [error, setError] = useState<string | undefined>(() => (!challenge || !getToken() ? t('errors.oauth_challenge_invalid') : undefined));
  const [sending, setSending] = useState<'approve' | 'deny' | undefined>();

  useEffect(() => {
    if (!challenge || !getToken()) return;
    getInteraction(challenge).then(
      (i) => (i.stage === 'consent' ? setInfo(i) : setError(t('errors.oauth_challenge_invalid'))),
      (err: unknown) => setError(err instanceof Error ? err.message : String(err)),
    );
  }, [challenge, t]);

  const answer = async (approve: boolean) => {
    if (!challenge) return;
    setSending(approve ? 'approve' : 'deny');
    setError(undefined);
    try {
      const next = await interactionConsent(challenge, approve);
      if (next.next === 'redirect' && leaveTo(next.redirectTo)) return;
      setError(t('errors.oauth_challenge_invalid'));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
    setSending(undefined);
  };

  return (
    <section className="login-card login-card--narrow" data-testid="consent-page">
      <h2 className="login-card__title">{info ? t('consent.title', { client: info.clientName }) : t('menu.authcode')}</h2>
      {error && (
        <div className="plain-alert plain-alert--error" role="alert" data-testid="consent-error">
          {error}
        </div>
      )}
      {!info && !error && <Loading />}
      {info && sending && <SsoContinuing />}
      {info && !sending && (
        <>
          <p className="plain-hint">{t('consent.intro', { client: info.clientName })}</p>
          <ul className="consent-scopes" data-testid="consent-scopes">
            {info.scopes.map((s) => (
              <li key={s}>{s in SCOPE_KEYS ? t(SCOPE_KEYS[s as keyof typeof SCOPE_KEYS]) : s}</li>
            ))}
          </ul>
          <div className="consent-actions">
            <button type="button" className="plain-button" onClick={() => void answer(false)} data-testid="consent-deny">
              {t('consent.deny')}
            </button>
            <button type="button" className="plain-button plain-button--primary" onClick={() => void answer(true)} data-testid="consent-approve">
              {t('consent.approve')}
            </button>
          </div>
          <p className="consent-note">{t('consent.revoke_hint', { place: t('menu.myOAuth') })}</p>
        </>
      )}
      {error && (
        <div className="login-card__links">
          <Link className="plain-link" to={SIGN_IN_PATH} data-testid="back-to-login">
            {t('consent.restart')}
          </Link>
        </div>
      )}
    </section>
  );
}
