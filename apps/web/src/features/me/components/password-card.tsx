/** Change password (SPEC §3 "Security"), with the strength meter; also the forced first change. */
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { changeOwnPasswordBody } from '@umbo/contracts/account';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { useChangePassword } from '../api/change-password';
import { StrengthMeter } from './strength-meter';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

export function PasswordCard({ forced }: { forced: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const newPassword = Form.useWatch('newPassword', form) ?? '';
  const change = useChangePassword();
  const onFinish = (v: Values) =>
    change.mutate(
      { oldPassword: v.oldPassword, newPassword: v.newPassword },
      {
        onSuccess: () => {
          form.resetFields();
          showInfo((say) => say('account.password_changed'));
        },
      },
    );
  return (
    <Card title={forced ? t('account.force_password_title') : t('account.change_password')} data-testid="password-card">
      {forced && (
        <Alert
          type="warning"
          showIcon
          title={t('account.force_password_hint')}
          description={t('security.force_password_blocked')}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form form={form} layout="vertical" onFinish={onFinish} style={{ maxWidth: 420 }} requiredMark={false}>
        <Form.Item htmlFor="old-password" name="oldPassword" label={t('account.old_password')} rules={rulesFor(changeOwnPasswordBody.shape.oldPassword, t)}>
          <Input.Password id="old-password" autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          htmlFor="new-password"
          name="newPassword"
          label={t('account.new_password')}
          rules={[
            ...rulesFor(changeOwnPasswordBody.shape.newPassword, t),
            ({ getFieldValue }) => ({
              validator: (_, value: string) =>
                value && value === getFieldValue('oldPassword') ? Promise.reject(new Error(t('account.password_same_as_old'))) : Promise.resolve(),
            }),
          ]}
          extra={newPassword ? <StrengthMeter password={newPassword} /> : undefined}
        >
          <Input.Password id="new-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          htmlFor="confirm-password"
          name="confirm"
          label={t('account.confirm_password')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('validation.required') },
            ({ getFieldValue }) => ({
              validator: (_, value: string) =>
                !value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t('validation.password_mismatch'))),
            }),
          ]}
        >
          <Input.Password id="confirm-password" autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="password-submit">
          {t('account.change_password')}
        </Button>
      </Form>
    </Card>
  );
}
