/** Changing the user name (SPEC §5: 3–24 characters, different from the current one). */
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { updateAccountBody } from '@umbo/contracts/account';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { useUpdateAccount } from '../api/update-account';

// The server's own rule; optional there (the body may change only the avatar), required here.
const USERNAME = updateAccountBody.shape.username.unwrap();

export function UsernameDialog({ current, open, onClose }: { current: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ username: string }>();
  const update = useUpdateAccount();
  const onFinish = ({ username }: { username: string }) =>
    update.mutate(
      { username },
      {
        onSuccess: () => {
          showInfo((say) => say('account.saved'));
          onClose();
        },
      },
    );
  return (
    <Modal open={open} title={t('account.edit_username')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={update.isPending} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ username: current }} onFinish={onFinish} requiredMark={false} preserve={false}>
        <Form.Item
          htmlFor="username-input"
          name="username"
          label={t('account.username')}
          rules={[
            ...rulesFor(USERNAME, t),
            { validator: (_, v: string) => (v === current ? Promise.reject(new Error(t('validation.username_same'))) : Promise.resolve()) },
          ]}
        >
          <Input id="username-input" maxLength={24} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
