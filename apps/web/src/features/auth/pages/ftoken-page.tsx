/**
 * /loginByFToken?ftoken=…&redirect=…: exchanges a short-lived, single-use sign-in token at
 * once. The token leaves the address bar and the history entry before the call; then the
 * visitor goes to the (same-origin) redirect.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { safeRedirectTarget } from '../../../lib/safe-redirect';
import { loginByFToken } from '../api/flows';
import { Loading, PublicCard } from '../components/public-card';
import { dropQueryParam, readQueryParam } from '../lib/take-query-param';

export default function FTokenPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [ftoken] = useState(() => readQueryParam('ftoken'));
  const [target] = useState(() => safeRedirectTarget(readQueryParam('redirect'), window.location.origin));
  const [error, setError] = useState<string | undefined>(ftoken ? undefined : 'missing');
  const started = useRef(false);

  useEffect(() => {
    dropQueryParam('ftoken');
    if (!ftoken || started.current) return;
    started.current = true;
    loginByFToken(ftoken).then(
      () => navigate(target, { replace: true }),
      (err: unknown) => setError(err instanceof Error ? err.message : 'failed'),
    );
  }, [ftoken, target, navigate]);

  return (
    <PublicCard title={t('flows.ftoken_signing_in')} testId="ftoken-page">
      {error ? (
        <div className="plain-alert plain-alert--error" role="alert" data-testid="ftoken-error">
          {error === 'missing' ? t('flows.ftoken_missing') : t('flows.ftoken_failed')}
          {error !== 'missing' && error !== 'failed' && error !== t('flows.ftoken_failed') && <div>{error}</div>}
        </div>
      ) : (
        <Loading />
      )}
    </PublicCard>
  );
}
