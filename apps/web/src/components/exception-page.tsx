/** The 403, 404 and 500 pages (SPEC §2). */
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export type ExceptionStatus = '403' | '404' | '500';

export function ExceptionPage({ status }: { status: ExceptionStatus }) {
  const { t } = useTranslation();
  return (
    <Result
      status={status}
      title={status}
      subTitle={t(`pages.exception_${status}`)}
      extra={
        <Link to="/">
          <Button type="primary">{t('pages.back_home')}</Button>
        </Link>
      }
    />
  );
}

export default ExceptionPage;
