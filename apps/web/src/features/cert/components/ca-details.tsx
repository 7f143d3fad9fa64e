/** A CA certificate's facts (domain/cert page): subject, issuer, validity, fingerprint, key, and its PEM / DER downloads. */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import type { CaView } from '@umbo/contracts/pki';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { StatusTag } from './cert-labels';
import { fileBase, saveDer, saveText } from './save-file';

/** `actions`: more buttons beside the downloads (the intermediate's renew). */
export function CaDetails({ ca, title, testId, actions }: { ca: CaView; title?: string; testId?: string; actions?: ReactNode }) {
  const { t } = useTranslation();
  const format = useFormat();
  const ltr = (text: string) => (
    <span dir="ltr" className="cert-code">
      {text}
    </span>
  );
  const base = fileBase(ca.accountName ?? `${ca.kind}-ca`, 'ca');
  return (
    <div data-testid={testId}>
      <Descriptions
        title={title}
        column={1}
        size="small"
        bordered
        items={[
          { key: 'subject', label: t('cert.subject'), children: ltr(ca.subject) },
          { key: 'issuer', label: t('cert.issuer'), children: ltr(ca.issuer) },
          { key: 'status', label: t('cert.status'), children: <StatusTag status={ca.status} /> },
          { key: 'notBefore', label: t('cert.not_before'), children: format.dateTime(ca.notBeforeTs) },
          { key: 'expireAt', label: t('cert.expire_at'), children: format.dateTime(ca.expireAtTs) },
          { key: 'sn', label: t('cert.serial'), children: ltr(ca.sn) },
          { key: 'fingerprint', label: t('cert.fingerprint'), children: ltr(ca.fingerprint) },
          { key: 'alg', label: t('cert.key_algorithm'), children: ltr(ca.keyAlgorithm) },
        ]}
      />
      <div className="cert-actions cert-section">
        <Button
          size="small"
          icon={<DownloadOutlined />}
          onClick={() => saveText(`${base}.pem`, ca.certPem)}
          aria-label={`${t('cert.download_pem')}: ${title ?? ca.subject}`}
        >
          {t('cert.download_pem')}
        </Button>
        <Button
          size="small"
          icon={<DownloadOutlined />}
          onClick={() => saveDer(`${base}.der`, ca.certPem)}
          aria-label={`${t('cert.download_der')}: ${title ?? ca.subject}`}
        >
          {t('cert.download_der')}
        </Button>
        {actions}
      </div>
    </div>
  );
}
