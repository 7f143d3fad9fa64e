/** document.title = route title + ' - ' + site title (SPEC §2). */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMeta } from '../components/use-route-meta';
import { projectConfig } from '../lib/project-config';

export function useSiteTitle(): string {
  const { t } = useTranslation();
  return projectConfig().siteTitle || t('shell.site_title');
}

export function DocumentTitle(): null {
  const { t } = useTranslation();
  const route = useRouteMeta();
  const site = useSiteTitle();
  useEffect(() => {
    document.title = route ? `${t(`menu.${route.title}`)} - ${site}` : site;
  }, [route, site, t]);
  return null;
}
