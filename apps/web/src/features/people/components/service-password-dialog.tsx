/** Change a service account's password (SPEC §2): set by its owner or an administrator, by default to be changed at its next sign-in. */
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import type { ServiceAccountView, ServiceScope } from '@umbo/contracts/service-accounts';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { useServicePassword } from '../api/service-password';
import { ServicePasswordFields } from './service-password-fields';

export function ServicePasswordDialog({ scope, service, onClose }: { scope: ServiceScope; service: ServiceAccountView; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string; first_login_need_reset_password: boolean }>();
  const setPassword = useServicePassword(scope);
  const onFinish = (v: { password: string; first_login_need_reset_password: boolean }) =>
    setPassword.mutate(
      { id: service.sub_id, body: { password: v.password, first_login_need_reset_password: v.first_login_need_reset_password } },
      {
        onSuccess: () => {
          showInfo((say) => say('people.service.saved'));
          onClose();
        },
      },
    );
  return (
    <Modal
      open
      title={t('people.service.password_title', { account: service.account })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={setPassword.isPending}
      destroyOnHidden
      data-testid="service-password-dialog"
    >
      <Form form={form} layout="vertical" initialValues={{ first_login_need_reset_password: true }} onFinish={onFinish} requiredMark={false} preserve={false}>
        <ServicePasswordFields idPrefix="service-reset" />
        <Form.Item name="first_login_need_reset_password" valuePropName="checked">
          <Checkbox id="service-reset-force">{t('people.service.force')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
