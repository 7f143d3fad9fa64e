/** The caller's own account root certificate above the certificate list: what it is, how long it issues for, and Edit CA. */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import EditOutlined from '@ant-design/icons/EditOutlined';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { downloadChain } from '../api/download-chain';
import { useOwnCa } from '../api/get-ca';
import { CaEditDialog } from './ca-edit-dialog';
import { StatusTag } from './cert-labels';

export function OwnCaBar({ canEdit, canRead }: { canEdit: boolean; canRead: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: ca } = useOwnCa(canRead);
  const [editing, setEditing] = useState(false);
  if (!ca) return null;
  return (
    <section className="cert-ca-bar" aria-labelledby="own-ca-title" data-testid="own-ca">
      <div className="cert-ca-bar__main">
        <span className="cert-ca-bar__line">
          <strong id="own-ca-title">{t('cert.ca_title')}</strong>
          <StatusTag status={ca.status} />
        </span>
        <span dir="ltr" className="cert-code">
          {ca.subject}
        </span>
        <span className="cert-ca-bar__line">
          <span>{t('cert.ca_valid_until', { time: format.dateTime(ca.expireAtTs) })}</span>
          <span data-testid="own-ca-periods">{t('cert.ca_periods', { days: ca.defaultIssueValidPeriod, max: ca.maxIssueValidPeriod })}</span>
          {ca.description && <span dir="auto">{ca.description}</span>}
        </span>
      </div>
      <div className="cert-actions">
        <Button
          size="small"
          icon={<DownloadOutlined />}
          onClick={() => void downloadChain('pem').then((name) => showInfo(() => t('cert.downloaded', { name })))}
        >
          {t('cert.ca_download_chain')}
        </Button>
        {canEdit && (
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="ca-edit">
            {t('cert.ca_edit')}
          </Button>
        )}
      </div>
      {editing && <CaEditDialog ca={ca} onClose={() => setEditing(false)} />}
    </section>
  );
}
