/**
 * What /user/loginSSO shows of the application that started the sign-in (SPEC §3 client
 * loginTips, loginUrl): its name, its note to its users — as TEXT, never markup — and
 * the way back to it.
 */
import type { InteractionInfo } from '@umbo/contracts/oauth-interaction';
import { useTranslation } from 'react-i18next';
import { httpUrl } from '../api/oauth-interaction';
import './sso.css';

export function SsoClient({ info }: { info: InteractionInfo }) {
  const { t } = useTranslation();
  const back = httpUrl(info.loginUrl);
  return (
    <div className="sso-client" data-testid="sso-client">
      <p className="sso-client__title">{t('consent.continue_to', { client: info.clientName })}</p>
      {info.loginTips && (
        <div className="sso-client__tips" dir="auto" role="note" aria-label={t('consent.tips_label', { client: info.clientName })} data-testid="sso-tips">
          {info.loginTips}
        </div>
      )}
      {back && (
        <a className="plain-link sso-client__back" href={back} rel="noreferrer" data-testid="sso-back">
          {t('consent.back_to_app')}
        </a>
      )}
    </div>
  );
}

/** "Working on it" while the server decides where the browser goes next. */
export function SsoContinuing() {
  const { t } = useTranslation();
  return (
    <div className="sso-continuing" role="status" aria-busy="true" data-testid="sso-continuing">
      <div className="plain-loading" />
      <span>{t('consent.continuing')}</span>
    </div>
  );
}
