/**
 * Roles and permissions (/account/role, issue 11): the roles of the chosen realm and who holds
 * them. Create, edit, delete, assign and remove appear only with the matching role.<action>
 * (SPEC §6: elements the user lacks are removed); the server decides every call regardless,
 * and offers in the grid only what the user may grant there.
 */
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Tabs from 'antd/es/tabs';
import { can } from '@umbo/contracts/permissions';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RealmSelect } from '../../../components/realm-select';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams } from '../../../lib/use-list-params';
import { useAssignments } from '../api/get-assignments';
import { useRoles } from '../api/get-roles';
import { AssignDialog } from '../components/assign-dialog';
import { AssignmentsTable } from '../components/assignments-table';
import { ROLE_PAGE_SPEC } from '../components/list-spec';
import { RoleEditor, type EditorMode } from '../components/role-editor';
import { RolesTable } from '../components/roles-table';
import '../components/roles.css';

type Tab = 'roles' | 'assignments';

export default function RolePage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const list = useListParams(ROLE_PAGE_SPEC);
  const tab: Tab = list.filters.tab === 'assignments' ? 'assignments' : 'roles';
  const realmId = list.filters.realmId ?? user?.realmId ?? '';
  const page = { limit: list.pageSize, offset: list.offset };
  // Every role of the realm, for the editor's grid, the assign dialog and the role filter.
  const allRoles = useRoles(realmId, { limit: 200, offset: 0 });
  const roles = useRoles(realmId, tab === 'roles' ? page : { limit: 200, offset: 0 });
  const assignments = useAssignments(realmId, { ...page, q: list.filters.q, roleId: list.filters.roleId }, tab === 'assignments');
  const [editor, setEditor] = useState<EditorMode | null>(null);
  const [assigning, setAssigning] = useState(false);
  const openEditor = useCallback((mode: EditorMode) => setEditor(mode), []);

  if (!user || !realmId) return null;
  const grantable = allRoles.data?.grantable ?? [];
  const realmRoles = allRoles.data?.items ?? [];

  const create = can(user, 'role', 'add') && tab === 'roles' && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditor({ kind: 'create' })} data-testid="role-create">
      {t('roles.create')}
    </Button>
  );
  const assign = can(user, 'role', 'update') && tab === 'assignments' && (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setAssigning(true)} data-testid="role-assign">
      {t('roles.assign')}
    </Button>
  );

  return (
    <Card title={t('menu.role')} data-testid="role-page" extra={create || assign}>
      <div className="roles__realm">
        <label htmlFor="role-realm">{t('roles.realm')}</label>
        <RealmSelect
          id="role-realm"
          className="roles__realm-select"
          user={user}
          value={realmId}
          onChange={(r) => list.change({ filters: { realmId: r, q: undefined, roleId: undefined } })}
        />
      </div>
      <Tabs
        activeKey={tab}
        onChange={(key) => list.change({ filters: { tab: key === 'assignments' ? 'assignments' : undefined, q: undefined, roleId: undefined } })}
        items={[
          {
            key: 'roles',
            label: t('roles.tab_roles'),
            children: (
              <RolesTable
                user={user}
                realmId={realmId}
                list={list}
                data={roles.data}
                loading={roles.isFetching}
                error={roles.error}
                onReload={() => void roles.refetch()}
                onOpen={openEditor}
              />
            ),
          },
          {
            key: 'assignments',
            label: t('roles.tab_assignments'),
            children: (
              <AssignmentsTable
                user={user}
                realmId={realmId}
                roles={realmRoles}
                list={list}
                data={assignments.data}
                loading={assignments.isFetching}
                error={assignments.error}
                onReload={() => void assignments.refetch()}
              />
            ),
          },
        ]}
      />
      {editor && <RoleEditor realmId={realmId} mode={editor} grantable={grantable} onClose={() => setEditor(null)} />}
      {assigning && <AssignDialog realmId={realmId} roles={realmRoles} onClose={() => setAssigning(false)} />}
    </Card>
  );
}
