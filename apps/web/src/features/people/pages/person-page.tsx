/**
 * Person accounts of a realm (/account/person?realmId=X; default the user's own realm; issue
 * 11, SPEC §3 "Person account", §4). Keyset pages (previous / next: a cursor cannot jump to
 * page N), search by prefix or part of user name / email / phone / id, filters, sorting, row
 * selection with bulk enable / disable / delete, per-row actions behind a confirmation, a
 * create dialog, a detail drawer, CSV import (dry run first) and export. Filters, order and
 * the cursor live in the address; elements the user may not use are not rendered.
 */
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Space from 'antd/es/space';
import Badge from 'antd/es/badge';
import { can, type Action } from '@umbo/contracts/permissions';
import type { PersonItem } from '@umbo/contracts/people';
import { useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { PageLoading } from '../../../components/page-loading';
import { confirm, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListChange, type ListSpec } from '../../../lib/use-list-params';
import { usePersonList, type PersonFilter } from '../api/person-list';
import { useBulkPersonAction, usePersonAction, type PersonAction } from '../api/person-state';
import { PersonCreateDialog } from '../components/person-create-dialog';
import { PersonDrawer } from '../components/person-drawer';
import { PersonExportButton } from '../components/person-export-button';
import { PersonImportDialog } from '../components/person-import-dialog';
import { PersonPager } from '../components/person-pager';
import { useBulkRefresh } from '../components/person-refresh';
import { PersonToolbar, type PersonFilterName } from '../components/person-toolbar';
import '../components/person.css';

type Sort = 'created' | 'username';
const SPEC: ListSpec<PersonFilterName, Sort> = {
  filters: ['q', 'field', 'match', 'status', 'activated', 'from', 'to', 'cursor'],
  sortable: ['created', 'username'],
  defaultSort: { field: 'created', order: 'descend' },
  pageSize: 20,
  pageSizes: [10, 20, 50, 100],
};

const num = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

export default function PersonPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: user } = useCurrentUser();
  const [search] = useSearchParams();
  const params = useListParams(SPEC);
  // A new order or filter from the table's headers starts from the first page: a cursor belongs to one order and filter.
  const list = useMemo(
    () => ({
      ...params,
      change: (c: ListChange<PersonFilterName, Sort>, o?: { replace?: boolean }) => params.change({ ...c, filters: { cursor: undefined, ...c.filters } }, o),
    }),
    [params],
  );
  const [selected, setSelected] = useState<Key[]>([]);
  const [open, setOpen] = useState<{ kind: 'create' | 'import' } | { kind: 'detail'; id: string } | undefined>();

  const realmId = search.get('realmId') || user?.realmId || '';
  const f = list.filters;
  const filter: PersonFilter = {
    q: f.q,
    field: f.field,
    match: f.match,
    status: f.status,
    activated: f.activated,
    createdFrom: num(f.from),
    createdTo: num(f.to),
    sort: list.sort?.field ?? 'created',
    order: list.sort?.order === 'ascend' ? 'asc' : 'desc',
  };
  const allowed = (action: Action) => can(user, 'person', action);
  const { data, error, isFetching, refetch } = usePersonList(realmId, { ...filter, limit: list.pageSize, cursor: f.cursor });
  const one = usePersonAction(realmId);
  const bulk = useBulkPersonAction(realmId);
  // issue 14: in a realm behind an IT-interface backend, the selection can also be refreshed from it
  const refresh = useBulkRefresh(realmId, user, selected, () => setSelected([]));

  const ask = (action: PersonAction, p: PersonItem) =>
    confirm({
      title: t(`people.person.confirm_${action}`, { name: p.username }),
      onOk: () => one.mutateAsync({ id: p.id, action }).then(() => showInfo((say) => say(`people.person.${action}d_done` as 'people.person.deleted_done'))),
    });

  const askBulk = (action: PersonAction) =>
    confirm({
      title: t(`people.person.confirm_bulk_${action}`, { count: selected.length }),
      onOk: () =>
        bulk.mutateAsync({ ids: selected.map(String), action }).then((r) => {
          setSelected([]);
          showInfo((say) => say('people.person.bulk_done', { count: r.done }));
          if (r.notFound.length) showInfo((say) => say('people.person.bulk_not_found', { count: r.notFound.length }));
        }),
    });

  const columns = useMemo((): DataTableColumn<PersonItem, PersonFilterName, Sort>[] => {
    const link = (label: string, onClick: () => void, testId: string, danger = false) => (
      <Button type="link" size="small" danger={danger} onClick={onClick} data-testid={testId}>
        {label}
      </Button>
    );
    return [
      {
        key: 'username',
        dataIndex: 'username',
        title: t('people.person.col_username'),
        width: 170,
        hideable: false,
        sortField: 'username',
        // Text, never markup: React renders it as such. The name opens the details.
        render: (name: string, p: PersonItem) =>
          allowed('get') ? (
            <Button type="link" size="small" className="person-page__name" onClick={() => setOpen({ kind: 'detail', id: p.id })} data-testid="person-name">
              <span dir="auto">{name}</span>
            </Button>
          ) : (
            <span dir="auto" className="person-page__name" data-testid="person-name">
              {name}
            </span>
          ),
      },
      { key: 'email', dataIndex: 'email', title: t('people.person.col_email'), width: 200, render: (v: string | null) => v && <span dir="ltr">{v}</span> },
      { key: 'phone', dataIndex: 'phone', title: t('people.person.col_phone'), width: 140, render: (v: string | null) => v && <span dir="ltr">{v}</span> },
      {
        key: 'status',
        dataIndex: 'disabled',
        title: t('people.person.col_status'),
        width: 100,
        // A dot beside plain text: the words keep the text's contrast (a light green tag does not reach 4.5:1).
        render: (disabled: boolean) => (
          <Badge
            status={disabled ? 'default' : 'success'}
            text={<span data-testid="person-status">{t(disabled ? 'people.person.disabled' : 'people.person.enabled')}</span>}
          />
        ),
        filter: {
          param: 'status',
          options: [
            { value: 'enabled', text: t('people.person.enabled') },
            { value: 'disabled', text: t('people.person.disabled') },
          ],
        },
      },
      {
        key: 'activated',
        dataIndex: 'activated',
        title: t('people.person.col_activated'),
        width: 110,
        render: (yes: boolean) => t(yes ? 'people.person.activated_yes' : 'people.person.activated_no'),
        filter: {
          param: 'activated',
          options: [
            { value: 'yes', text: t('people.person.activated_yes') },
            { value: 'no', text: t('people.person.activated_no') },
          ],
        },
      },
      {
        key: 'createdAt',
        dataIndex: 'createdAt',
        title: t('people.person.col_created'),
        width: 170,
        sortField: 'created',
        render: (ms: number) => format.dateTime(ms),
      },
      {
        key: 'lastLoginAt',
        dataIndex: 'lastLoginAt',
        title: t('people.person.col_last_login'),
        width: 180,
        defaultHidden: true,
        render: (ms: number | null) => (ms ? format.dateTime(ms) : ''),
      },
      {
        key: 'registArea',
        dataIndex: 'registArea',
        title: t('people.person.col_regist_area'),
        width: 130,
        defaultHidden: true,
        render: (v: string) => v && <span dir="ltr">+{v}</span>,
      },
      {
        key: 'actions',
        title: t('people.person.col_actions'),
        width: 150,
        hideable: false,
        render: (_: unknown, p: PersonItem) => (
          <Space size={0} wrap>
            {/* Not on the user's own row: the server refuses that (1042). */}
            {p.id !== user?.id && p.disabled && allowed('enable') && link(t('people.person.enable'), () => ask('enable', p), 'person-enable')}
            {p.id !== user?.id && !p.disabled && allowed('disable') && link(t('people.person.disable'), () => ask('disable', p), 'person-disable', true)}
            {p.id !== user?.id && allowed('delete') && link(t('people.person.delete'), () => ask('delete', p), 'person-delete', true)}
          </Space>
        ),
      },
    ];
    // `allowed` and `ask` read `user` and the mutation: listed through them
  }, [t, format, user, one]);

  if (!user) return <PageLoading />;
  const bulkActions = (['enable', 'disable', 'delete'] as const).filter((a) => allowed(a));

  return (
    <Card title={t('people.person.title')} data-testid="person-page">
      {/* Above the table, not in the card's head: at 390 px the head has no room for the title and three buttons. */}
      <div className="person-page__actions">
        <Space wrap>
          {allowed('add') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen({ kind: 'create' })} data-testid="person-add">
              {t('people.person.add')}
            </Button>
          )}
          {allowed('import') && (
            <Button onClick={() => setOpen({ kind: 'import' })} data-testid="person-import">
              {t('people.person.import')}
            </Button>
          )}
          {allowed('export') && <PersonExportButton realmId={realmId} filter={filter} />}
        </Space>
      </div>
      <DataTable
        tableId="person-accounts"
        columns={columns}
        list={list}
        data={data}
        rowKey="id"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        // Fits the content area beside an open side menu at 1440 px; narrower screens scroll.
        scrollX={1070}
        rowTestId="person-row"
        toolbar={<PersonToolbar list={list} realmId={realmId} ownRealmId={user.realmId} />}
        selection={
          bulkActions.length || refresh.button
            ? {
                selectedKeys: selected,
                onChange: setSelected,
                actions: (
                  <Space size={4} wrap>
                    {bulkActions.map((a) => (
                      <Button key={a} size="small" danger={a !== 'enable'} onClick={() => askBulk(a)} data-testid={`person-bulk-${a}`}>
                        {t(`people.person.${a}`)}
                      </Button>
                    ))}
                    {refresh.button}
                  </Space>
                ),
              }
            : undefined
        }
        pager={
          <PersonPager
            data={data}
            pageSize={list.pageSize}
            atStart={!f.cursor}
            onMove={(cursor) => list.change({ filters: { cursor } })}
            onFirst={() => list.change({ filters: { cursor: undefined } })}
            onPageSize={(pageSize) => list.change({ pageSize, filters: { cursor: undefined } })}
          />
        }
      />
      {open?.kind === 'create' && <PersonCreateDialog realmId={realmId} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'import' && <PersonImportDialog realmId={realmId} onClose={() => setOpen(undefined)} />}
      {refresh.dialog}
      {open?.kind === 'detail' && <PersonDrawer realmId={realmId} id={open.id} user={user} onClose={() => setOpen(undefined)} />}
    </Card>
  );
}
