/**
 * Issue records (account/cert/certRecord, certRecord.query): every issuance, reissue, set cert,
 * revocation and CA renewal of the caller's certificates, newest first, keyset paged; `certId`
 * in the address narrows it to one certificate (linked from a certificate's view).
 */
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Tag from 'antd/es/tag';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { useFormat } from '../../../lib/format';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { useRecords, type CertRecord } from '../api/get-records';
import { KeysetPager, useKeyset } from '../components/keyset-pager';
import '../components/cert.css';

type Param = 'certId' | 'cursor';
const SPEC: ListSpec<Param> = { filters: ['certId', 'cursor'] };
export default function CertRecordPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const list = useListParams(SPEC);
  const f = list.filters;
  const { data, error, isFetching, refetch } = useRecords({ certId: f.certId, cursor: f.cursor, limit: list.pageSize });
  const keyset = useKeyset(f.cursor, data?.next, (cursor) => list.change({ filters: { cursor } }));

  const columns = useMemo(
    (): DataTableColumn<CertRecord>[] => [
      {
        key: 'at',
        dataIndex: 'at',
        title: t('cert.record_at'),
        width: 180,
        className: 'cert-nowrap',
        render: (ms: number) => <time dateTime={new Date(ms).toISOString()}>{format.dateTime(ms)}</time>,
      },
      {
        key: 'kind',
        dataIndex: 'kind',
        title: t('cert.record_kind'),
        width: 130,
        render: (k: CertRecord['kind']) => <Tag data-testid="record-kind">{t(`cert.kind_${k}`)}</Tag>,
      },
      {
        key: 'cn',
        dataIndex: 'cn',
        title: t('cert.cn'),
        width: 200,
        render: (cn: string) => (
          <span dir="ltr" data-testid="record-cn">
            {cn}
          </span>
        ),
      },
      {
        key: 'sn',
        dataIndex: 'sn',
        title: t('cert.serial'),
        width: 220,
        render: (sn: string) => (
          <code className="cert-code" dir="ltr" data-testid="record-sn">
            {sn}
          </code>
        ),
      },
      {
        key: 'actor',
        dataIndex: 'actorName',
        title: t('cert.record_actor'),
        width: 150,
        render: (n: string | null, r: CertRecord) => <span dir="auto">{n ?? r.actorId}</span>,
      },
      { key: 'reason', dataIndex: 'reason', title: t('cert.record_reason'), width: 170, render: (r: CertRecord['reason']) => r && t(`cert.reason_${r}`) },
    ],
    [t, format],
  );

  return (
    <Card title={t('menu.certRecord')} data-testid="cert-record-page">
      <DataTable
        tableId="cert-records"
        columns={columns}
        list={list}
        data={data && { items: data.items, total: data.items.length }}
        rowKey="id"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        scrollX={1050}
        rowTestId="record-row"
        emptyText={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cert.records_empty')} />}
        toolbar={
          f.certId && (
            <span className="cert-actions">
              <Tag>{t('cert.record_filter_cert', { id: f.certId })}</Tag>
              <Button size="small" type="link" onClick={() => list.change({ filters: { certId: undefined, cursor: undefined } })}>
                {t('cert.record_clear_filter')}
              </Button>
            </span>
          )
        }
        pager={<KeysetPager state={keyset} testId="record-pager" />}
      />
    </Card>
  );
}
