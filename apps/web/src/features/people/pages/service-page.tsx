/**
 * Service (sub) accounts (/account/service; SPEC §2–§4, issue 11). Two ways in:
 *   - ?realmId=X&ownerId=Y — an administrator looks at a person's service accounts
 *     (service.<action> in that realm);
 *   - no ownerId — a person's own (userService.<action>), when the server gives them that.
 * Keyset paging (previous / next) and the sub-name search live in the address. Enable, disable
 * and delete ask first (SPEC §4); buttons the user may not use are not shown (SPEC §6) — the
 * server refuses them anyway.
 */
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import { can, type Action } from '@umbo/contracts/permissions';
import type { ServiceAccountView, ServiceScope } from '@umbo/contracts/service-accounts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { PageLoading } from '../../../components/page-loading';
import { confirm, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { useServiceList } from '../api/service-list';
import { useServiceState, type ServiceStateAction } from '../api/service-state';
import { ServiceFormDialog } from '../components/service-form-dialog';
import { ServiceInfoDialog } from '../components/service-info-dialog';
import { ServicePager } from '../components/service-pager';
import { ServicePasswordDialog } from '../components/service-password-dialog';
import { ServiceResourcesDialog } from '../components/service-resources-dialog';
import { ServiceStatus } from '../components/service-status';
import '../components/service.css';

type Filter = 'q' | 'cursor' | 'dir';
const SPEC: ListSpec<Filter> = { filters: ['q', 'cursor', 'dir'] };
const LIMIT = 20;

type Dialog = { kind: 'add' } | { kind: 'edit' | 'info' | 'password' | 'resources'; service: ServiceAccountView } | undefined;

export default function ServicePage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: user } = useCurrentUser();
  const [search] = useSearchParams();
  const list = useListParams(SPEC);
  const [dialog, setDialog] = useState<Dialog>();

  const realmId = search.get('realmId') ?? '';
  const ownerId = search.get('ownerId') ?? '';
  const scope = useMemo<ServiceScope>(() => (ownerId ? { realmId: realmId || (user?.realmId ?? ''), ownerId } : 'own'), [realmId, ownerId, user?.realmId]);
  const own = scope === 'own';
  const permission = own ? 'userService' : 'service';
  const allowed = (action: Action) => can(user, permission, action);
  const mayList = allowed('query');

  const { data, error, isFetching, refetch } = useServiceList(
    scope,
    { limit: LIMIT, q: list.filters.q, cursor: list.filters.cursor, direction: list.filters.dir === 'prev' ? 'prev' : 'next' },
    Boolean(user) && mayList,
  );
  const state = useServiceState(scope);

  const ask = (action: ServiceStateAction, s: ServiceAccountView) =>
    confirm({
      title: t(`people.service.confirm_${action}`, { account: s.account }),
      onOk: () =>
        state.mutateAsync({ id: s.sub_id, action }).then(() => {
          if (action === 'delete') showInfo((say) => say('people.service.deleted'));
        }),
    });

  const columns = useMemo((): DataTableColumn<ServiceAccountView, Filter>[] => {
    const link = (label: string, onClick: () => void, testId: string, danger = false) => (
      <Button type="link" size="small" danger={danger} onClick={onClick} data-testid={testId}>
        {label}
      </Button>
    );
    return [
      {
        key: 'account',
        dataIndex: 'account',
        title: t('people.service.col_account'),
        width: 220,
        hideable: false,
        render: (account: string) => (
          <span dir="ltr" className="service-page__account">
            {account}
          </span>
        ),
      },
      {
        key: 'status',
        dataIndex: 'status',
        title: t('people.service.col_status'),
        width: 110,
        render: (status: ServiceAccountView['status']) => <ServiceStatus status={status} />,
      },
      {
        key: 'force',
        dataIndex: 'first_login_need_reset_password',
        title: t('people.service.col_force'),
        width: 140,
        render: (v: boolean) => t(v ? 'people.service.yes' : 'people.service.no'),
      },
      {
        key: 'regist_area',
        dataIndex: 'regist_area',
        title: t('people.service.col_regist_area'),
        width: 130,
        defaultHidden: true,
        render: (v: string) => v && <span dir="ltr">+{v}</span>,
      },
      {
        key: 'description',
        dataIndex: 'description',
        title: t('people.service.col_description'),
        width: 200,
        render: (v: string) => v && <span dir="auto">{v}</span>,
      },
      {
        key: 'lastLoginTime',
        dataIndex: 'lastLoginTime',
        title: t('people.service.col_last_login'),
        width: 180,
        render: (ms: number | null) => (ms ? format.dateTime(ms) : ''),
      },
      {
        key: 'actions',
        title: t('people.service.col_actions'),
        hideable: false,
        render: (_: unknown, s: ServiceAccountView) => (
          <Space size={0} wrap>
            {allowed('get') && link(t('people.service.info'), () => setDialog({ kind: 'info', service: s }), 'service-info')}
            {allowed('edit') && link(t('people.service.edit'), () => setDialog({ kind: 'edit', service: s }), 'service-edit')}
            {allowed('get') && link(t('people.service.resources'), () => setDialog({ kind: 'resources', service: s }), 'service-resources')}
            {allowed('update') && link(t('people.service.password'), () => setDialog({ kind: 'password', service: s }), 'service-password')}
            {s.status === 'disabled' && allowed('enable') && link(t('people.service.enable'), () => ask('enable', s), 'service-enable')}
            {s.status === 'enabled' && allowed('disable') && link(t('people.service.disable'), () => ask('disable', s), 'service-disable', true)}
            {allowed('delete') && link(t('people.service.delete'), () => ask('delete', s), 'service-delete', true)}
          </Space>
        ),
      },
    ];
    // `allowed` and `ask` read `user`, `scope` and `state`: listed through them
  }, [t, format, user, scope, state]);

  if (!user) return <PageLoading />;
  const ownerName = data?.owner.name ?? '';
  const close = () => setDialog(undefined);

  if (!mayList) {
    return (
      <Card title={t('menu.service')} data-testid="service-page">
        <Alert type="info" showIcon title={t('people.service.owner_missing')} />
      </Card>
    );
  }

  return (
    <Card
      title={own ? t('people.service.own_title') : t('people.service.title')}
      extra={ownerName && !own ? <span data-testid="service-owner">{t('people.service.owner', { name: ownerName })}</span> : undefined}
      data-testid="service-page"
    >
      <DataTable
        tableId="service-accounts"
        columns={columns}
        list={list}
        data={data}
        rowKey="sub_id"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        scrollX={900}
        rowTestId="service-row"
        toolbar={
          <Space wrap>
            <Input.Search
              key={list.filters.q ?? ''}
              id="service-search"
              className="service-page__search"
              aria-label={t('people.service.search')}
              placeholder={t('people.service.search')}
              allowClear
              defaultValue={list.filters.q}
              enterButton={t('security.search')}
              onSearch={(q) => list.change({ filters: { q, cursor: undefined, dir: undefined } })}
            />
            {allowed('add') && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add' })} data-testid="service-add">
                {t('people.service.add')}
              </Button>
            )}
          </Space>
        }
        pager={
          <ServicePager
            total={data?.total}
            prevCursor={data?.prevCursor}
            nextCursor={data?.nextCursor}
            onMove={(cursor, dir) => list.change({ filters: { cursor, dir: dir === 'prev' ? 'prev' : undefined } })}
          />
        }
      />
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <ServiceFormDialog scope={scope} ownerName={ownerName || user.name} editing={dialog.kind === 'edit' ? dialog.service : undefined} onClose={close} />
      )}
      {dialog?.kind === 'info' && <ServiceInfoDialog service={dialog.service} showTimeline={!own && can(user, 'person', 'get')} onClose={close} />}
      {dialog?.kind === 'password' && <ServicePasswordDialog scope={scope} service={dialog.service} onClose={close} />}
      {dialog?.kind === 'resources' && <ServiceResourcesDialog scope={scope} service={dialog.service} canEdit={allowed('edit')} onClose={close} />}
    </Card>
  );
}
