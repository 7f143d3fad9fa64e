/** A service account's details (SPEC §3 fields) and, for those who may read it, its audit timeline. */
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import type { ServiceAccountView } from '@umbo/contracts/service-accounts';
import { useTranslation } from 'react-i18next';
import { AuditTimeline } from '../../../components/audit-timeline';
import { useFormat } from '../../../lib/format';
import { ServiceStatus } from './service-status';

export function ServiceInfoDialog({ service, showTimeline, onClose }: { service: ServiceAccountView; showTimeline: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const yesNo = (v: boolean) => t(v ? 'people.service.yes' : 'people.service.no');
  const items = [
    { key: 'account', label: t('people.service.col_account'), children: <span dir="ltr">{service.account}</span> },
    {
      key: 'status',
      label: t('people.service.col_status'),
      children: <ServiceStatus status={service.status} />,
    },
    { key: 'sub_id', label: t('people.service.sub_id'), children: <code dir="ltr">{service.sub_id}</code> },
    { key: 'regist_area', label: t('people.service.col_regist_area'), children: service.regist_area ? <span dir="ltr">+{service.regist_area}</span> : '—' },
    { key: 'force', label: t('people.service.col_force'), children: yesNo(service.first_login_need_reset_password) },
    { key: 'description', label: t('people.service.col_description'), children: service.description ? <span dir="auto">{service.description}</span> : '—' },
    { key: 'created', label: t('people.service.created_at'), children: format.dateTime(service.createdAt) },
    { key: 'last_login', label: t('people.service.col_last_login'), children: service.lastLoginTime ? format.dateTime(service.lastLoginTime) : '—' },
  ];
  return (
    <Modal open title={t('people.service.info_title')} onCancel={onClose} footer={null} destroyOnHidden width={640} data-testid="service-info-dialog">
      <Descriptions column={1} size="small" bordered items={items} />
      {showTimeline && (
        <section className="service-page__timeline" aria-label={t('people.service.activity')}>
          <h3>{t('people.service.activity')}</h3>
          <AuditTimeline realmId={service.realmId} accountId={service.sub_id} />
        </section>
      )}
    </Modal>
  );
}
