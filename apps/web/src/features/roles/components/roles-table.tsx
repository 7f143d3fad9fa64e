/**
 * The roles a realm uses: built-in ones first, then the realm's own, with what each holds and
 * how many accounts hold it. Edit and delete appear only for a custom role the user may change
 * (role.edit / role.delete, and the role within their own set: the server's `grantable`).
 */
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import { can, type CurrentUser } from '@umbo/contracts/permissions';
import type { RoleList, RoleView } from '@umbo/contracts/roles';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { confirm, showInfo } from '../../../lib/feedback';
import type { ListState } from '../../../lib/use-list-params';
import { useDeleteRole } from '../api/delete-role';
import type { RolePageFilter } from './list-spec';
import type { EditorMode } from './role-editor';

const BUILTIN_DESCRIBE = { admin: 'roles.builtin_admin', 'realm-admin': 'roles.builtin_realm_admin', 'realm-viewer': 'roles.builtin_realm_viewer' } as const;

export interface RolesTableProps {
  user: CurrentUser;
  realmId: string;
  list: ListState<RolePageFilter>;
  data: RoleList | undefined;
  loading: boolean;
  error: Error | null;
  onReload: () => void;
  onOpen: (mode: EditorMode) => void;
}

export function RolesTable({ user, realmId, list, data, loading, error, onReload, onOpen }: RolesTableProps) {
  const { t } = useTranslation();
  const remove = useDeleteRole();
  const mayEdit = can(user, 'role', 'edit');
  const mayDelete = can(user, 'role', 'delete');

  const columns = useMemo((): DataTableColumn<RoleView, RolePageFilter>[] => {
    const askDelete = (role: RoleView) =>
      confirm({
        title: t('roles.delete_confirm', { name: role.name }),
        content: role.bindings > 0 ? t('roles.delete_confirm_holders', { count: role.bindings }) : undefined,
        onOk: () =>
          remove.mutateAsync({ realmId, roleId: role.id }).then(() => {
            showInfo((say) => say('roles.deleted'));
          }),
      });
    return [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('roles.col_name'),
        width: 200,
        hideable: false,
        render: (name: string, role) => (
          <Space size={4} wrap>
            <span dir="auto">{name}</span>
            <Tag color={role.builtin ? 'blue' : undefined}>{role.builtin ? t('roles.builtin') : t('roles.custom')}</Tag>
          </Space>
        ),
      },
      {
        key: 'description',
        dataIndex: 'description',
        title: t('roles.col_description'),
        render: (d: string, role) => (
          <span dir="auto">{role.builtin && role.id in BUILTIN_DESCRIBE ? t(BUILTIN_DESCRIBE[role.id as keyof typeof BUILTIN_DESCRIBE]) : d}</span>
        ),
      },
      {
        key: 'permissions',
        dataIndex: 'permissions',
        title: t('roles.col_permissions'),
        width: 150,
        render: (p: RoleView['permissions']) => t('roles.grant_count', { count: p.reduce((n, g) => n + g.actions.length, 0) }),
      },
      { key: 'bindings', dataIndex: 'bindings', title: t('roles.col_holders'), width: 110, render: (n: number) => String(n) },
      {
        key: 'operations',
        title: t('roles.col_operations'),
        width: 200,
        hideable: false,
        render: (_: unknown, role) => {
          const changeable = !role.builtin && role.grantable;
          return (
            <Space size={0} wrap>
              {mayEdit && changeable ? (
                <Button type="link" size="small" onClick={() => onOpen({ kind: 'edit', role })} data-testid="role-edit">
                  {t('roles.edit')}
                </Button>
              ) : (
                <Button type="link" size="small" onClick={() => onOpen({ kind: 'view', role })} data-testid="role-view">
                  {t('roles.view')}
                </Button>
              )}
              {mayDelete && changeable && (
                <Button type="link" size="small" danger onClick={() => askDelete(role)} data-testid="role-delete">
                  {t('roles.delete')}
                </Button>
              )}
            </Space>
          );
        },
      },
    ];
  }, [t, mayEdit, mayDelete, onOpen, realmId, remove]);

  return (
    <DataTable
      tableId="roles"
      columns={columns}
      list={list}
      data={data}
      rowKey="id"
      loading={loading}
      error={error}
      onReload={onReload}
      scrollX={820}
      rowTestId="role-row"
    />
  );
}
