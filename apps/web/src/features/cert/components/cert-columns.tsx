/** The certificate list's columns (SPEC §3: cn, type, status, revoke status, validity, sn in decimal, key, desc). */
import Button from 'antd/es/button';
import Tag from 'antd/es/tag';
import type { CertView } from '@umbo/contracts/pki';
import type { TFunction } from 'i18next';
import type { DataTableColumn } from '../../../components/data-table';
import type { Formatters } from '../../../lib/format';
import { RevokeStatus, StatusTag } from './cert-labels';

export type CertAction = 'view' | 'reissue' | 'revoke';

export interface CertColumnOptions {
  t: TFunction;
  format: Formatters;
  allowed: (action: 'get' | 'add' | 'update') => boolean;
  onAction: (action: CertAction, cert: CertView) => void;
}

export function certColumns({ t, format, allowed, onAction }: CertColumnOptions): DataTableColumn<CertView>[] {
  return [
    {
      key: 'cn',
      dataIndex: 'cn',
      title: t('cert.cn'),
      width: 200,
      hideable: false,
      render: (cn: string, c: CertView) =>
        allowed('get') ? (
          <Button type="link" size="small" onClick={() => onAction('view', c)} data-testid="cert-cn">
            <span dir="ltr">{cn}</span>
          </Button>
        ) : (
          <span dir="ltr" data-testid="cert-cn">
            {cn}
          </span>
        ),
    },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('cert.type'),
      width: 150,
      render: (type: CertView['type'], c: CertView) => (
        <span>
          {t(`cert.type_${type}`)}
          {c.cnType && (
            <>
              <br />
              <Tag>{t(`cert.cn_type_${c.cnType}`)}</Tag>
            </>
          )}
        </span>
      ),
    },
    { key: 'status', dataIndex: 'status', title: t('cert.status'), width: 110, render: (s: CertView['status']) => <StatusTag status={s} /> },
    {
      key: 'revoke',
      dataIndex: 'revokeStatus',
      title: t('cert.revoke_status'),
      width: 170,
      render: (r: CertView['revokeStatus']) => <RevokeStatus revoke={r} format={format.dateTime} />,
    },
    {
      key: 'notBefore',
      dataIndex: 'notBeforeTs',
      title: t('cert.not_before'),
      width: 170,
      className: 'cert-nowrap',
      render: (ms: number) => format.dateTime(ms),
    },
    { key: 'expireAt', dataIndex: 'expireAtTs', title: t('cert.expire_at'), width: 170, className: 'cert-nowrap', render: (ms: number) => format.dateTime(ms) },
    {
      key: 'sn',
      dataIndex: 'sn',
      title: t('cert.serial'),
      width: 220,
      render: (sn: string) => (
        <code className="cert-code" dir="ltr" data-testid="cert-sn">
          {sn}
        </code>
      ),
    },
    { key: 'key', dataIndex: 'keyName', title: t('cert.key'), width: 130, render: (k: string | null) => k && <span dir="ltr">{k}</span> },
    { key: 'desc', dataIndex: 'desc', title: t('cert.desc'), width: 180, render: (d: string) => <span dir="auto">{d}</span> },
    {
      key: 'actions',
      title: t('cert.actions'),
      width: 200,
      hideable: false,
      render: (_: unknown, c: CertView) => (
        <div className="cert-actions">
          {allowed('add') && c.ours && c.status !== 'revoked' && (
            <Button size="small" onClick={() => onAction('reissue', c)} data-testid="cert-reissue">
              {t('cert.reissue')}
            </Button>
          )}
          {allowed('update') && !c.revokeStatus.revoked && (
            <Button size="small" danger onClick={() => onAction('revoke', c)} data-testid="cert-revoke">
              {t('cert.revoke')}
            </Button>
          )}
        </div>
      ),
    },
  ];
}
