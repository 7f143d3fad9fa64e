/**
 * /newauth/user_redirect_authcode_by_users_authcode?client_id=…&token=…&redirect_uri=…&state=…
 * (SPEC §2 public route; §3 allowAuthCode): the parent client sends the browser here with a
 * user's access token; the server gives the sub client's authorization code for that user and
 * the sub client's registered URL, and the browser goes there. The token leaves the address bar
 * and the history entry before the call. Never any URL the server did not answer.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading, PublicCard } from '../components/public-card';
import { dropQueryParam, readQueryParam } from '../lib/take-query-param';
import { getSubClientCode } from '../api/sub-client-code';
import { leaveTo } from '../api/oauth-interaction';

export default function UserRedirectAuthcodePage() {
  const { t } = useTranslation();
  const [input] = useState(() => ({
    token: readQueryParam('token'),
    clientId: readQueryParam('client_id'),
    redirectUri: readQueryParam('redirect_uri') || undefined,
    state: readQueryParam('state') || undefined,
    codeChallenge: readQueryParam('code_challenge') || undefined,
    codeChallengeMethod: readQueryParam('code_challenge_method') || undefined,
  }));
  const [error, setError] = useState<'missing' | 'failed' | undefined>(input.token && input.clientId ? undefined : 'missing');
  const started = useRef(false);

  useEffect(() => {
    dropQueryParam('token');
    if (!input.token || !input.clientId || started.current) return;
    started.current = true;
    getSubClientCode({
      token: input.token,
      client_id: input.clientId,
      redirect_uri: input.redirectUri,
      state: input.state,
      code_challenge: input.codeChallenge,
      code_challenge_method: input.codeChallengeMethod,
    }).then(
      // only an http(s) address leaves the page, as on the sign-in and consent pages
      (r) => void (leaveTo(r.redirectTo, 'replace') || setError('failed')),
      () => setError('failed'),
    );
  }, [input]);

  return (
    <PublicCard title={t('flows.authcode_redirecting')} testId="authcode-page">
      {error ? (
        <div className="plain-alert plain-alert--error" role="alert" data-testid="authcode-error">
          {error === 'missing' ? t('flows.authcode_missing') : t('flows.authcode_failed')}
        </div>
      ) : (
        <Loading />
      )}
    </PublicCard>
  );
}
