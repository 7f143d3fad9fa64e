/** Enabled / disabled as a coloured dot and plain text: a green tag's text falls short of WCAG AA contrast. */
import Badge from 'antd/es/badge';
import type { ServiceAccountView } from '@umbo/contracts/service-accounts';
import { useTranslation } from 'react-i18next';

export function ServiceStatus({ status }: { status: ServiceAccountView['status'] }) {
  const { t } = useTranslation();
  return <Badge status={status === 'enabled' ? 'success' : 'default'} text={t(`people.service.${status}`)} data-testid="service-status" />;
}
