/**
 * The audit log (/account/audit, audit.query): a realm's events — who did what to whom, from
 * where, with what result — newest first, filtered by actor, target, action, result and time,
 * paged by keyset (newest / newer / older), exported as CSV (audit.export). Administrators of
 * master may choose "All domains". Filters, realm and position live in the address.
 */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import { ALL_REALMS, type AuditEventView } from '@umbo/contracts/audit';
import { can } from '@umbo/contracts/permissions';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Tag from 'antd/es/tag';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { PageLoading } from '../../../components/page-loading';
import { isPlatformAdmin, RealmSelect } from '../../../components/realm-select';
import { actionLabel, detailParts } from '../../../lib/audit-labels';
import { showError, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { exportAudit } from '../api/export-audit';
import { useAuditPage, type AuditFilter } from '../api/get-audit';
import { AuditFilters } from '../components/audit-filters';
import { AuditPager } from '../components/audit-pager';
import '../components/audit.css';

type Param = 'realm' | 'actor' | 'target' | 'action' | 'result' | 'from' | 'to' | 'cursor' | 'dir';
const SPEC: ListSpec<Param> = { filters: ['realm', 'actor', 'target', 'action', 'result', 'from', 'to', 'cursor', 'dir'] };

const asResult = (v: string | undefined) => (v === 'ok' || v === 'fail' ? v : undefined);
const asMs = (v: string | undefined) => (v && /^\d{1,16}$/.test(v) ? Number(v) : undefined);

export default function AuditPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: user } = useCurrentUser();
  const list = useListParams(SPEC);
  const f = list.filters;
  const realmId = f.realm ?? user?.realmId ?? '';
  const filter: AuditFilter = { actor: f.actor, target: f.target, action: f.action, result: asResult(f.result), from: asMs(f.from), to: asMs(f.to) };
  const { data, error, isFetching, refetch } = useAuditPage({
    ...filter,
    realmId,
    cursor: f.cursor,
    direction: f.dir === 'prev' ? 'prev' : 'next',
    limit: list.pageSize,
  });
  const [exporting, setExporting] = useState<number | null>(null);
  const allRealms = realmId === ALL_REALMS;

  const columns = useMemo((): DataTableColumn<AuditEventView, Param>[] => {
    return [
      {
        key: 'at',
        dataIndex: 'at',
        title: t('audit.time'),
        width: 180,
        className: 'audit__nowrap',
        render: (ms: number) => <time dateTime={new Date(ms).toISOString()}>{format.dateTime(ms)}</time>,
      },
      ...(allRealms ? [{ key: 'realmId', dataIndex: 'realmId', title: t('audit.realm'), width: 120 } as DataTableColumn<AuditEventView, Param>] : []),
      {
        key: 'actor',
        dataIndex: 'actor',
        title: t('audit.actor'),
        width: 160,
        render: (a: AuditEventView['actor']) => (a ? <span dir="auto">{a.name || a.id}</span> : <Tag>{t('audit.anonymous')}</Tag>),
      },
      {
        key: 'action',
        dataIndex: 'action',
        title: t('audit.action'),
        width: 200,
        render: (action: string) => (
          <span>
            {actionLabel(t, action)}
            <br />
            <code className="audit__code" dir="ltr">
              {action}
            </code>
          </span>
        ),
      },
      {
        key: 'target',
        dataIndex: 'target',
        title: t('audit.target'),
        width: 180,
        render: (target: AuditEventView['target']) => target && <span dir="auto">{target.name || target.id}</span>,
      },
      {
        key: 'result',
        dataIndex: 'result',
        title: t('audit.result'),
        width: 100,
        render: (r: AuditEventView['result']) => (
          <Tag color={r === 'ok' ? undefined : 'error'}>{r === 'ok' ? t('audit.result_ok') : t('audit.result_fail')}</Tag>
        ),
      },
      { key: 'ip', dataIndex: 'ip', title: t('audit.ip'), width: 140, render: (ip: string) => ip && <span dir="ltr">{ip}</span> },
      {
        key: 'userAgent',
        dataIndex: 'userAgent',
        title: t('audit.user_agent'),
        width: 220,
        defaultHidden: true,
        render: (ua: string) => ua && <span dir="ltr">{ua}</span>,
      },
      {
        key: 'detail',
        title: t('audit.detail'),
        render: (_: unknown, e: AuditEventView) => <span dir="auto">{detailParts(t, e).join(' · ')}</span>,
      },
    ];
  }, [t, format, allRealms]);

  if (!user) return <PageLoading />;

  const apply = (next: AuditFilter) =>
    list.change({
      filters: {
        actor: next.actor,
        target: next.target,
        action: next.action,
        result: next.result,
        from: next.from?.toString(),
        to: next.to?.toString(),
        cursor: undefined,
        dir: undefined,
      },
    });

  const onExport = async () => {
    setExporting(0);
    try {
      const rows = await exportAudit(realmId, filter, setExporting);
      showInfo(t('audit.exported', { count: rows }));
    } catch (err) {
      // The API client already said what went wrong where it could.
      if (!(err as { notified?: boolean }).notified) showError(t('audit.export_failed'));
    } finally {
      setExporting(null);
    }
  };

  return (
    <Card
      title={t('audit.title')}
      data-testid="audit-page"
      extra={
        can(user, 'audit', 'export') && (
          <Button icon={<DownloadOutlined />} onClick={() => void onExport()} loading={exporting !== null} data-testid="audit-export">
            {exporting !== null ? t('audit.exporting', { count: exporting }) : t('audit.export')}
          </Button>
        )
      }
    >
      <div className="audit__realm">
        <label htmlFor="audit-realm">{t('audit.realm')}</label>
        <RealmSelect
          id="audit-realm"
          className="audit__realm-select"
          user={user}
          value={realmId}
          allowAll={isPlatformAdmin(user)}
          onChange={(realm) => list.change({ filters: { realm, cursor: undefined, dir: undefined } })}
        />
      </div>
      <DataTable
        tableId="audit"
        columns={columns}
        list={list}
        data={data && { items: data.items, total: data.items.length }}
        rowKey="id"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        scrollX={1100}
        rowTestId="audit-row"
        toolbar={<AuditFilters key={JSON.stringify(filter)} value={filter} onApply={apply} />}
        pager={
          <AuditPager
            prevCursor={data?.prevCursor}
            nextCursor={data?.nextCursor}
            paged={Boolean(f.cursor)}
            onMove={(cursor, dir) => list.change({ filters: { cursor, dir: dir === 'prev' ? 'prev' : undefined } })}
          />
        }
      />
    </Card>
  );
}
