/**
 * /user/register-result: after registering (a success result naming the address the
 * activation mail went to, with "resend"), or the activation link's landing (?code=…): the
 * code is taken out of the address bar, then sent. Plain HTML like every public page.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { activate } from '../api/flows';
import { useRealmOptions } from '../api/use-realm-options';
import { Loading, PublicCard } from '../components/public-card';
import { ResendActivation } from '../components/resend-activation';
import { SuccessResult } from '../components/success-result';
import { dropQueryParam, readQueryParam } from '../lib/take-query-param';

type State = { kind: 'registered'; mail: boolean } | { kind: 'activating' } | { kind: 'activated'; username: string } | { kind: 'failed'; message: string };

export default function RegisterResultPage() {
  const { t } = useTranslation();
  const { realmId, options } = useRealmOptions();
  // The register page hands the address over in the history state (never in the address bar).
  const email = (useLocation().state as { email?: unknown } | null)?.email;
  const address = typeof email === 'string' ? email : undefined;
  const [code] = useState(() => readQueryParam('code'));
  const [state, setState] = useState<State>(() =>
    code ? { kind: 'activating' } : { kind: 'registered', mail: new URLSearchParams(window.location.search).get('activation') === 'mail' },
  );
  const started = useRef(false);
  useEffect(() => {
    if (!code || started.current) return;
    dropQueryParam('code');
    started.current = true;
    activate(code, realmId).then(
      (r) => setState({ kind: 'activated', username: r.username }),
      (err: unknown) => setState({ kind: 'failed', message: err instanceof Error && err.message ? err.message : t('flows.activate_failed') }),
    );
  }, [code, realmId, t]);

  let body;
  if (state.kind === 'activating') body = <Loading />;
  else if (state.kind === 'failed')
    body = (
      <div className="plain-alert plain-alert--error" role="alert" data-testid="register-result-error">
        {t('flows.activate_failed')} {state.message !== t('flows.activate_failed') && state.message}
      </div>
    );
  else if (state.kind === 'activated') body = <SuccessResult text={t('flows.activated', { username: state.username })} />;
  else if (!state.mail) body = <SuccessResult text={t('flows.result_ready')} />;
  else
    body = (
      <>
        <SuccessResult text={address ? t('flows.result_mail_sent', { email: address }) : t('flows.result_check_mail')} />
        <ResendActivation realmId={realmId} email={address} captchaPolicy={options?.captchaPolicy} />
      </>
    );
  return (
    <PublicCard title={state.kind === 'registered' ? t('flows.result_title') : t('menu.registerResult')} testId="register-result-page">
      {body}
    </PublicCard>
  );
}
