/**
 * OAuth records (SPEC §3 "OAuth record": client name, client id, OAuth time), with the scopes
 * granted and, for administrators, the account. Revoking asks first; it ends every token of
 * the grant at once.
 */
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Tag from 'antd/es/tag';
import type { OAuthRecordItem } from '@umbo/contracts/clients';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { confirm, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import type { ListState } from '../../../lib/use-list-params';
import { useRecordList, type RecordScope } from '../api/record-list';
import { useRevokeRecord } from '../api/record-revoke';

export interface RecordsTableProps<F extends string> {
  scope: RecordScope;
  list: ListState<F>;
  canRevoke: boolean;
  emptyText: string;
  toolbar?: React.ReactNode;
}

export function RecordsTable<F extends string>({ scope, list, canRevoke, emptyText, toolbar }: RecordsTableProps<F>) {
  const { t } = useTranslation();
  const format = useFormat();
  const own = scope === 'own';
  const { data, error, isFetching, refetch } = useRecordList(scope, { limit: list.pageSize, offset: list.offset });
  const revoke = useRevokeRecord(scope);

  const columns = useMemo((): DataTableColumn<OAuthRecordItem, F>[] => {
    const ask = (r: OAuthRecordItem) =>
      confirm({
        title: own
          ? t('clients.rec_confirm_revoke_own', { client: r.clientName })
          : t('clients.rec_confirm_revoke', { client: r.clientName, account: r.accountName }),
        onOk: () => revoke.mutateAsync(r).then(() => showInfo((say) => say('clients.rec_revoked'))),
      });
    return [
      ...(own
        ? []
        : [
            {
              key: 'account',
              dataIndex: 'accountName',
              title: t('clients.rec_col_account'),
              width: 150,
              hideable: false,
              render: (name: string) => (
                <span dir="auto" data-testid="record-account">
                  {name}
                </span>
              ),
            },
          ]),
      {
        key: 'client',
        dataIndex: 'clientName',
        title: t('clients.rec_col_client'),
        width: 180,
        hideable: false,
        // Text, never markup.
        render: (name: string) => (
          <span dir="auto" className="records__name" data-testid="record-client">
            {name}
          </span>
        ),
      },
      {
        key: 'clientId',
        dataIndex: 'clientId',
        title: t('clients.rec_col_client_id'),
        width: 250,
        render: (id: string) => (
          <code dir="ltr" className="records__id">
            {id}
          </code>
        ),
      },
      {
        key: 'scope',
        dataIndex: 'scope',
        title: t('clients.rec_col_scopes'),
        width: 180,
        render: (scope: string) =>
          scope
            .split(' ')
            .filter(Boolean)
            .map((s) => <Tag key={s}>{s}</Tag>),
      },
      { key: 'time', dataIndex: 'oauthTime', title: t('clients.rec_col_time'), width: 170, render: (ms: number) => format.dateTime(ms) },
      ...(canRevoke
        ? [
            {
              key: 'actions',
              title: t('clients.col_actions'),
              width: 110,
              hideable: false,
              render: (_: unknown, r: OAuthRecordItem) => (
                <Button size="small" danger onClick={() => ask(r)} data-testid="record-revoke">
                  {t('clients.rec_revoke')}
                </Button>
              ),
            },
          ]
        : []),
    ];
  }, [t, format, own, canRevoke, revoke]);

  return (
    <DataTable
      tableId={own ? 'oauth-records-own' : 'oauth-records'}
      columns={columns}
      list={list}
      data={data}
      rowKey={(r) => `${r.accountId}/${r.clientId}`}
      loading={isFetching}
      error={error}
      onReload={() => void refetch()}
      scrollX={own ? 890 : 1040}
      rowTestId="record-row"
      toolbar={toolbar}
      emptyText={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="records-empty">{emptyText}</span>} />}
    />
  );
}
