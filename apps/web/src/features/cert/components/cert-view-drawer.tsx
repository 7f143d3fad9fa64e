/** One certificate: every SPEC §3 field, its PEM to copy, PEM and DER downloads, and a way to its issue records. */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Spin from 'antd/es/spin';
import type { CertView } from '@umbo/contracts/pki';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyBlock } from '../../../components/copy-block';
import { useFormat } from '../../../lib/format';
import { useCert } from '../api/get-cert';
import { RevokeStatus, StatusTag } from './cert-labels';
import { fileBase, saveDer, saveText } from './save-file';

export function CertViewDrawer({ certId, onClose }: { certId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, error, isPending } = useCert(certId);
  return (
    <Drawer
      open
      onClose={onClose}
      title={data ? t('cert.view_title', { cn: data.cn }) : t('cert.view')}
      size="large"
      styles={{ wrapper: { width: 'min(760px, 100vw)' } }}
      destroyOnHidden
      data-testid="cert-view-drawer"
    >
      {error ? <span role="alert">{error.message}</span> : isPending || !data ? <Spin /> : <CertDetails cert={data} />}
    </Drawer>
  );
}

export function CertDetails({ cert: c }: { cert: CertView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const base = fileBase(c.cn);
  const ltr = (text: string) => (
    <span dir="ltr" className="cert-code">
      {text}
    </span>
  );
  return (
    <>
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          { key: 'cn', label: t('cert.cn'), children: ltr(c.cn) },
          { key: 'cnType', label: t('cert.cn_type'), children: c.cnType ? t(`cert.cn_type_${c.cnType}`) : t('cert.none') },
          {
            key: 'san',
            label: t('cert.san'),
            children: c.san.length ? (
              <ul className="cert-list-plain">
                {c.san.map((s, i) => (
                  <li key={i}>
                    {t(`cert.san_type_${s.type}`)}: {ltr(s.value)}
                  </li>
                ))}
              </ul>
            ) : (
              t('cert.none')
            ),
          },
          { key: 'type', label: t('cert.type'), children: t(`cert.type_${c.type}`) },
          { key: 'status', label: t('cert.status'), children: <StatusTag status={c.status} /> },
          { key: 'revoke', label: t('cert.revoke_status'), children: <RevokeStatus revoke={c.revokeStatus} format={format.dateTime} /> },
          { key: 'sn', label: t('cert.serial'), children: <span data-testid="cert-view-sn">{ltr(c.sn)}</span> },
          { key: 'notBefore', label: t('cert.not_before'), children: format.dateTime(c.notBeforeTs) },
          { key: 'expireAt', label: t('cert.expire_at'), children: format.dateTime(c.expireAtTs) },
          { key: 'subject', label: t('cert.subject'), children: ltr(c.subject) },
          { key: 'issuer', label: t('cert.issuer'), children: ltr(c.issuer) },
          { key: 'ours', label: t('cert.ours'), children: c.ours ? t('cert.ours_yes') : t('cert.ours_no') },
          { key: 'key', label: t('cert.key'), children: c.keyName ? ltr(c.keyName) : t('cert.none') },
          { key: 'fingerprint', label: t('cert.fingerprint'), children: ltr(c.fingerprint) },
          { key: 'desc', label: t('cert.desc'), children: <span dir="auto">{c.desc}</span> },
        ]}
      />
      <h3 className="cert-section">{t('cert.cert_pem')}</h3>
      <CopyBlock text={c.certPem} label={t('cert.cert_pem')} multiline testId="cert-pem" />
      <div className="cert-actions cert-section">
        <Button icon={<DownloadOutlined />} onClick={() => saveText(`${base}.pem`, c.certPem)} data-testid="cert-download-pem">
          {t('cert.download_pem')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => saveDer(`${base}.der`, c.certPem)} data-testid="cert-download-der">
          {t('cert.download_der')}
        </Button>
        <Link to={`/account/cert/certRecord?certId=${encodeURIComponent(c.id)}`}>{t('cert.records_of_cert')}</Link>
      </div>
    </>
  );
}
