/** Turning the one-time password off: two consecutive codes, or the password and a recovery code. */
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { useState } from 'react';
import { otpDisableBody } from '@umbo/contracts/account';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';
import { useDisableOtp, type DisableOtpBody } from '../api/disable-otp';
import { OtpCodeFields } from './otp-code-fields';

export function OtpDisableDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const disable = useDisableOtp();
  const close = () => {
    setRecovery(false);
    onClose();
  };
  const submit = (body: DisableOtpBody) => disable.mutate(body, { onSuccess: close });
  return (
    <Modal open={open} title={t('account.otp_title')} footer={null} onCancel={close} destroyOnHidden>
      {recovery ? (
        <Form<{ password: string; recoveryCode: string }> layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item htmlFor="otp-disable-password" name="password" label={t('security.password')} rules={rulesFor(otpDisableBody.shape.password.unwrap(), t)}>
            <Input.Password id="otp-disable-password" autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            htmlFor="otp-recovery-code"
            name="recoveryCode"
            label={t('account.otp_recovery_code')}
            rules={rulesFor(otpDisableBody.shape.recoveryCode.unwrap(), t)}
          >
            <Input id="otp-recovery-code" maxLength={16} />
          </Form.Item>
          <Button type="primary" danger htmlType="submit" block loading={disable.isPending} data-testid="otp-disable-submit">
            {t('account.otp_disable')}
          </Button>
        </Form>
      ) : (
        <>
          <OtpCodeFields pending={disable.isPending} submitLabel={t('account.otp_disable')} onFinish={submit} />
          <Button type="link" onClick={() => setRecovery(true)} style={{ paddingInline: 0, marginTop: 8 }}>
            {t('account.otp_use_recovery')}
          </Button>
        </>
      )}
    </Modal>
  );
}
