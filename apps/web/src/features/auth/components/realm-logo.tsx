/**
 * The realm's own logo (auth options `logo`, the realm's logo_img_url) above its public forms,
 * so a visitor sees whose sign-in this is. Its name is the site title (the options carry no
 * realm name). A logo that does not load is left out rather than shown broken.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { projectConfig } from '../../../lib/project-config';

export function RealmLogo({ src }: { src: string | undefined }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | undefined>();
  if (!src || failed === src) return null;
  return (
    <div className="realm-logo">
      <img src={src} alt={projectConfig().siteTitle || t('shell.site_title')} onError={() => setFailed(src)} data-testid="realm-logo" />
    </div>
  );
}
