/**
 * The domain list (account/domain, SPEC §2): the domains the administrator may see, each with
 * links to its person and service accounts, its clients and its OAuth records;
 * create, edit, export, import and delete for those who hold the permission (the others do
 * not see the buttons; the server refuses them anyway).
 */
import DownOutlined from '@ant-design/icons/DownOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Dropdown from 'antd/es/dropdown';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import { can } from '@umbo/contracts/permissions';
import type { RealmSummary } from '@umbo/contracts/realms';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { useRealms } from '../api/get-realms';
import { downloadExport } from '../api/realm-transfer';
import { DeleteRealmDialog } from '../components/delete-realm-dialog';
import { ImportRealmDialog } from '../components/import-realm-dialog';
import { RealmDrawer } from '../components/realm-form';

type Filter = 'q';
const SPEC: ListSpec<Filter> = { filters: ['q'] };

export default function DomainPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const list = useListParams(SPEC);
  const { data: user } = useCurrentUser();
  const { data, error, isFetching, refetch } = useRealms({ q: list.filters.q, limit: list.pageSize, offset: list.offset });
  // `opened` tells openings apart: a form reopened before the drawer finished closing starts afresh.
  const [drawer, setDrawer] = useState<{ realmId?: string; opened: number } | undefined>();
  const [deleting, setDeleting] = useState<RealmSummary>();
  const [importing, setImporting] = useState(false);
  // Platform acts (create, delete, import as new) are decided in master; the server has the last word.
  const may = (action: 'add' | 'edit' | 'delete' | 'export' | 'import') => can(user, 'domain', action);

  const columns = useMemo((): DataTableColumn<RealmSummary, Filter>[] => {
    const q = (id: string) => `?realmId=${encodeURIComponent(id)}`;
    return [
      {
        key: 'realmId',
        dataIndex: 'realmId',
        title: t('domains.col_realm_id'),
        hideable: false,
        render: (id: string) => (
          <Button type="link" style={{ padding: 0 }} onClick={() => setDrawer({ realmId: id, opened: Date.now() })} data-testid="realm-open">
            <span dir="ltr">{id}</span>
          </Button>
        ),
      },
      {
        key: 'domain',
        dataIndex: 'domain',
        title: t('domains.col_domain'),
        // One line: a host name broken at a dot reads wrongly, worst in right-to-left pages;
        // a long one is cut with an ellipsis and shown whole on hover.
        width: 240,
        ellipsis: true,
        render: (d: string) => (
          <span dir="ltr" title={d}>
            {d}
          </span>
        ),
      },
      { key: 'description', dataIndex: 'description', title: t('domains.col_description'), render: (d: string) => <span dir="auto">{d}</span> },
      {
        key: 'backend',
        dataIndex: 'backend_type',
        title: t('domains.col_backend'),
        render: (b: string) => <Tag>{t(`domains.type_${b}` as 'domains.type_default')}</Tag>,
      },
      { key: 'accounts', dataIndex: 'accountCount', title: t('domains.col_accounts'), render: (n: number) => format.number(n) },
      {
        key: 'links',
        title: t('domains.person_accounts'),
        render: (_: unknown, r: RealmSummary) => (
          <Space size={12} wrap>
            <Link to={`/account/person${q(r.realmId)}`}>{t('domains.person_accounts')}</Link>
            <Link to={`/account/service${q(r.realmId)}`}>{t('domains.service_accounts')}</Link>
            {/* Issue 12: SPEC §2 "domain list (with client list)": the realm's clients and OAuth records. */}
            {can(user, 'client', 'query') && (
              <Link to={`/account/client${q(r.realmId)}`} data-testid="realm-clients">
                {t('clients.title')}
              </Link>
            )}
            {can(user, 'oauthList', 'query') && <Link to={`/account/oauthList${q(r.realmId)}`}>{t('clients.rec_title')}</Link>}
          </Space>
        ),
      },
      { key: 'createdAt', dataIndex: 'createdAt', title: t('domains.col_created'), defaultHidden: true, render: (ms: number) => format.dateTime(ms) },
      {
        key: 'actions',
        title: t('domains.col_actions'),
        hideable: false,
        render: (_: unknown, r: RealmSummary) => {
          const items = [
            ...(may('export')
              ? [
                  { key: 'export', label: t('domains.export'), onClick: () => void downloadExport(r.realmId, false) },
                  { key: 'export-accounts', label: t('domains.export_accounts'), onClick: () => void downloadExport(r.realmId, true) },
                ]
              : []),
            ...(may('delete') && r.realmId !== 'master' ? [{ key: 'delete', danger: true, label: t('domains.delete'), onClick: () => setDeleting(r) }] : []),
          ];
          return (
            <Space size={4}>
              <Button size="small" onClick={() => setDrawer({ realmId: r.realmId, opened: Date.now() })} data-testid="realm-edit">
                {t('domains.edit')}
              </Button>
              {items.length > 0 && (
                <Dropdown menu={{ items }} trigger={['click']}>
                  <Button size="small" aria-label={t('domains.more', { realm: r.realmId })} icon={<DownOutlined />} data-testid="realm-more" />
                </Dropdown>
              )}
            </Space>
          );
        },
      },
    ];
  }, [t, format, user]);

  return (
    <Card title={t('domains.title')} data-testid="domain-page">
      <DataTable
        tableId="domains"
        columns={columns}
        list={list}
        data={data}
        rowKey="realmId"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        scrollX={900}
        rowTestId="realm-row"
        toolbar={
          <Space wrap>
            <Input.Search
              key={list.filters.q ?? ''}
              id="realm-search"
              aria-label={t('domains.search')}
              allowClear
              defaultValue={list.filters.q}
              placeholder={t('domains.search')}
              enterButton={t('domains.search_button')}
              onSearch={(value) => list.change({ filters: { q: value } })}
              style={{ maxWidth: 320 }}
            />
            {may('add') && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ opened: Date.now() })} data-testid="realm-create">
                {t('domains.create')}
              </Button>
            )}
            {may('import') && (
              <Button onClick={() => setImporting(true)} data-testid="realm-import">
                {t('domains.import')}
              </Button>
            )}
          </Space>
        }
      />
      <RealmDrawer open={Boolean(drawer)} opened={drawer?.opened ?? 0} realmId={drawer?.realmId} canEdit={may('edit')} onClose={() => setDrawer(undefined)} />
      <DeleteRealmDialog realm={deleting} onClose={() => setDeleting(undefined)} />
      <ImportRealmDialog open={importing} onClose={() => setImporting(false)} />
    </Card>
  );
}
