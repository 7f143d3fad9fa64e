/**
 * Shown when a screen's code could not be loaded (network, timeout, or a redeploy replaced the
 * chunk). Part of the first-load bundle on purpose, so plain HTML: it must work when loading
 * does not.
 */
import { useTranslation } from 'react-i18next';

export function ChunkErrorPage({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="plain-result" role="alert" data-testid="chunk-error">
      <h2 className="plain-result__title">{t('pages.chunk_error_title')}</h2>
      <p className="plain-result__text">{t('pages.chunk_error')}</p>
      <button type="button" className="plain-button plain-button--primary" onClick={onRetry}>
        {t('pages.retry')}
      </button>
    </div>
  );
}

/** The last resort for a rendering error nothing else caught. */
export function CrashPage() {
  const { t } = useTranslation();
  return (
    <div className="plain-result" role="alert">
      <h2 className="plain-result__title">{t('menu.exception500')}</h2>
      <p className="plain-result__text">{t('pages.exception_500')}</p>
      <button type="button" className="plain-button plain-button--primary" onClick={() => window.location.assign('/')}>
        {t('pages.back_home')}
      </button>
    </div>
  );
}
