/**
 * An honest placeholder for a screen a later issue builds: it says so and shows no data.
 */
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRouteMeta } from './use-route-meta';

export default function NotAvailablePage() {
  const { t } = useTranslation();
  const route = useRouteMeta();
  return (
    <Result
      status="info"
      title={route ? t(`menu.${route.title}`) : t('pages.not_available_title')}
      subTitle={
        <>
          {route && <strong className="not-available__status">{t('pages.not_available_title')}</strong>}
          <span>{t('pages.not_available')}</span>
        </>
      }
      extra={
        <Link to="/">
          <Button>{t('pages.back_home')}</Button>
        </Link>
      }
    />
  );
}
