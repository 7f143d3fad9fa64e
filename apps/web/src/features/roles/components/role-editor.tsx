/**
 * Create, edit or look at a role (issue 11). The fields are checked with the server's own
 * schema (contracts roleCreateBody); the grid offers only what the editor may grant. A
 * built-in role, or one wider than the editor, opens read-only and says why.
 */
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import type { Rule } from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { roleCreateBody, type GrantView, type RoleView } from '@umbo/contracts/roles';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { useSaveRole } from '../api/save-role';
import { PermissionGrid } from './permission-grid';

export type EditorMode = { kind: 'create' } | { kind: 'edit' | 'view'; role: RoleView };

/** The name's own messages (roles.name_rule, roles.name_reserved) are phrases of this page, not of `validation`. */
function nameRules(t: (key: 'validation.required' | 'roles.name_rule' | 'roles.name_reserved') => string): Rule[] {
  return [
    { required: true, message: t('validation.required') },
    {
      validator: (_: unknown, v: string | undefined) => {
        if (!v) return Promise.resolve();
        const issue = roleCreateBody.shape.name.safeParse(v).error?.issues[0];
        if (!issue) return Promise.resolve();
        const message = issue.message === 'roles.name_reserved' ? t('roles.name_reserved') : t('roles.name_rule');
        return Promise.reject(new Error(message));
      },
    },
  ];
}

interface Values {
  name: string;
  description: string;
  permissions: GrantView[];
}

export function RoleEditor({ realmId, mode, grantable, onClose }: { realmId: string; mode: EditorMode; grantable: GrantView[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useSaveRole();
  const role = mode.kind === 'create' ? undefined : mode.role;
  const readOnly = mode.kind === 'view';
  const title = mode.kind === 'create' ? t('roles.editor_create') : mode.kind === 'edit' ? t('roles.editor_edit') : t('roles.editor_view');

  const onFinish = (v: Values) => {
    const body = { name: v.name, description: v.description, permissions: v.permissions };
    save.mutate(role ? { realmId, roleId: role.id, body } : { realmId, body }, {
      onSuccess: () => {
        showInfo((say) => say(role ? 'roles.saved' : 'roles.created'));
        onClose();
      },
    });
  };

  const footer = readOnly
    ? [
        <Button key="close" onClick={onClose}>
          {t('roles.close')}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          {t('roles.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="role-save">
          {t('roles.save')}
        </Button>,
      ];

  return (
    <Modal open title={title} onCancel={onClose} footer={footer} width={880} destroyOnHidden data-testid="role-editor">
      {role?.builtin && <Alert className="roles__notice" type="info" showIcon title={t('roles.readonly_builtin')} />}
      {role && !role.builtin && readOnly && !role.grantable && <Alert className="roles__notice" type="warning" showIcon title={t('roles.readonly_wider')} />}
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={readOnly}
        initialValues={{ name: role?.name ?? '', description: role?.description ?? '', permissions: role?.permissions ?? [] }}
        onFinish={onFinish}
      >
        <Form.Item name="name" label={t('roles.name')} htmlFor="role-name" rules={nameRules(t)} extra={readOnly ? undefined : t('roles.name_rule')}>
          <Input id="role-name" maxLength={50} autoComplete="off" />
        </Form.Item>
        <Form.Item name="description" label={t('roles.description')} htmlFor="role-description" rules={rulesFor(roleCreateBody.shape.description, t)}>
          <Input id="role-description" maxLength={50} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="permissions"
          rules={[
            { validator: (_, v: GrantView[] | undefined) => (v?.length ? Promise.resolve() : Promise.reject(new Error(t('roles.permissions_required')))) },
          ]}
        >
          <PermissionGrid id="role-permissions" grantable={grantable} readOnly={readOnly} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
