/**
 * Who holds which role in the realm, newest first, searchable by account name and filtered by
 * role. Removing an assignment asks first (SPEC §4) and is offered only with role.update and
 * for roles within the user's own set.
 */
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Tag from 'antd/es/tag';
import { can, type CurrentUser } from '@umbo/contracts/permissions';
import type { AssignmentList, AssignmentView, RoleView } from '@umbo/contracts/roles';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { confirm, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import type { ListState } from '../../../lib/use-list-params';
import { useUnassignRole } from '../api/assign-role';
import type { RolePageFilter } from './list-spec';

export interface AssignmentsTableProps {
  user: CurrentUser;
  realmId: string;
  roles: RoleView[];
  list: ListState<RolePageFilter>;
  data: AssignmentList | undefined;
  loading: boolean;
  error: Error | null;
  onReload: () => void;
  toolbar?: ReactNode;
}

export function AssignmentsTable({ user, realmId, roles, list, data, loading, error, onReload, toolbar }: AssignmentsTableProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const unassign = useUnassignRole();
  const mayChange = can(user, 'role', 'update');

  const columns = useMemo((): DataTableColumn<AssignmentView, RolePageFilter>[] => {
    const askRemove = (a: AssignmentView) =>
      confirm({
        title: t('roles.unassign_confirm', { role: a.roleName, account: a.username }),
        onOk: () =>
          unassign.mutateAsync({ realmId, accountId: a.accountId, roleId: a.roleId }).then(() => {
            showInfo((say) => say('roles.unassigned'));
          }),
      });
    const grantable = new Set(roles.filter((r) => r.grantable).map((r) => r.id));
    return [
      {
        key: 'username',
        dataIndex: 'username',
        title: t('roles.col_account'),
        hideable: false,
        render: (name: string, a) => (
          <>
            <span dir="auto">{name}</span>
            {a.disabled && <Tag className="roles__tag">{t('roles.account_disabled')}</Tag>}
          </>
        ),
      },
      {
        key: 'roleName',
        dataIndex: 'roleName',
        title: t('roles.col_role'),
        width: 200,
        render: (name: string) => <span dir="auto">{name}</span>,
        filter: { param: 'roleId', options: roles.map((r) => ({ value: r.id, text: r.name })) },
      },
      { key: 'realmId', dataIndex: 'realmId', title: t('roles.col_realm'), width: 140, render: (r: string) => <span dir="ltr">{r}</span> },
      { key: 'createdAt', dataIndex: 'createdAt', title: t('roles.col_since'), width: 190, render: (ms: number) => format.dateTime(ms) },
      ...(mayChange
        ? [
            {
              key: 'operations',
              title: t('roles.col_operations'),
              width: 120,
              hideable: false,
              render: (_: unknown, a: AssignmentView) =>
                grantable.has(a.roleId) ? (
                  <Button type="link" size="small" danger onClick={() => askRemove(a)} data-testid="assignment-remove">
                    {t('roles.unassign')}
                  </Button>
                ) : null,
            },
          ]
        : []),
    ];
  }, [t, format, roles, mayChange, realmId, unassign]);

  return (
    <DataTable
      tableId="role-assignments"
      columns={columns}
      list={list}
      data={data}
      rowKey={(a) => `${a.accountId}:${a.roleId}`}
      loading={loading}
      error={error}
      onReload={onReload}
      scrollX={760}
      rowTestId="assignment-row"
      toolbar={
        <>
          <Input.Search
            key={list.filters.q ?? ''}
            id="assignment-search"
            className="roles__search"
            aria-label={t('roles.search_account')}
            allowClear
            defaultValue={list.filters.q}
            placeholder={t('roles.search_account')}
            enterButton={t('roles.search')}
            onSearch={(q) => list.change({ filters: { q } })}
          />
          {toolbar}
        </>
      }
    />
  );
}
