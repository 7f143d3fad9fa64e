/**
 * Give a role to a person account of the realm: the account is found by part of its name,
 * email or phone (the server searches); only roles the editor may give are offered.
 */
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import type { RoleView } from '@umbo/contracts/roles';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { useAssignRole } from '../api/assign-role';
import { useCandidates } from '../api/get-candidates';

interface Values {
  accountId: string;
  roleId: string;
}

export function AssignDialog({ realmId, roles, onClose }: { realmId: string; roles: RoleView[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [search, setSearch] = useState('');
  const candidates = useCandidates(realmId, search, true);
  const assign = useAssignRole();
  const required = [{ required: true, message: t('validation.required') }];

  const onFinish = (v: Values) =>
    assign.mutate(
      { realmId, ...v },
      {
        onSuccess: (r) => {
          showInfo((say) => say(r.created ? 'roles.assigned' : 'roles.already_assigned'));
          onClose();
        },
      },
    );

  return (
    <Modal
      open
      title={t('roles.assign')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('roles.save')}
      cancelText={t('roles.cancel')}
      confirmLoading={assign.isPending}
      destroyOnHidden
      data-testid="assign-dialog"
    >
      <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item name="accountId" label={t('roles.assign_account')} htmlFor="assign-account" rules={required} extra={t('roles.assign_account_placeholder')}>
          <Select
            id="assign-account"
            showSearch={{ filterOption: false, onSearch: setSearch }}
            loading={candidates.isFetching}
            notFoundContent={t('roles.no_candidates')}
            options={(candidates.data?.items ?? []).map((a) => ({ value: a.id, label: a.username }))}
            data-testid="assign-account"
          />
        </Form.Item>
        <Form.Item name="roleId" label={t('roles.assign_role')} htmlFor="assign-role" rules={required}>
          <Select id="assign-role" options={roles.filter((r) => r.grantable).map((r) => ({ value: r.id, label: r.name }))} data-testid="assign-role" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
