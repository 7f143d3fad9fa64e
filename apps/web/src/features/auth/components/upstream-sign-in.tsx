/**
 * "Sign in with …" of a realm whose OpenID sign-in through an upstream provider is on (issue
 * 14), under the local methods of the sign-in page. The button is a plain link to the
 * server's start route (a top-level navigation: the upstream's pages are not ours to frame);
 * the OAuth challenge and the console's `redirect` ride along so the sign-in continues where
 * it started. Back from the upstream, the page carries either a single-use hand-over ticket,
 * exchanged at once for the console's session (out of the address bar first, as an ftoken
 * is), or `upstream_error`, a catalogue code shown with its phrase.
 */
import { errorByCode } from '@umbo/contracts/errors';
import type { LoginResult } from '@umbo/contracts/auth';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { setToken } from '../../../lib/token';
import { dropQueryParam, readQueryParam } from '../lib/take-query-param';

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
}

function startUrl(realmId: string, challenge: string | null | undefined, redirect: string | null | undefined): string {
  const q = new URLSearchParams();
  if (challenge) q.set('challenge', challenge);
  if (redirect) q.set('redirect', redirect);
  const qs = q.toString();
  return `/api/federation/${encodeURIComponent(realmId)}/oidc/start${qs ? `?${qs}` : ''}`;
}

export function UpstreamSignIn({ realmId, challenge, redirect, onSignedIn }: UpstreamSignInProps) {
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
  const started = useRef(false);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;

  useEffect(() => {
    dropQueryParam('upstream_ticket');
    dropQueryParam('upstream_error');
    if (!ticket || started.current) return;
    started.current = true;
    api.post<LoginResult>('/api/federation/oidc/exchange', { ticket }, auth).then(
      (r) => {
        setToken(r.token, r.expiresAt);
        signedIn.current();
      },
      (err: unknown) => {
        setBusy(false);
        setFailure(err instanceof Error ? err.message : t('errors.upstream_sign_in_failed'));
      },
    );
  }, [ticket, t]);

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
