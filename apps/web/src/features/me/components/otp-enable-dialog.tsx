/**
 * Turning on the one-time password (SPEC §3): the password creates a pending key, shown as a
 * QR code and as text; two consecutive codes confirm it; the ten recovery codes show once.
 */
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { otpSetupBody } from '@umbo/contracts/account';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { useEnableOtp } from '../api/enable-otp';
import { useSetupOtp, type OtpSetup } from '../api/setup-otp';
import { OtpCodeFields, type OtpCodes } from './otp-code-fields';
import { QrCode } from './qr-code';

/** The codes as a text file, one per line: saved by the browser, never sent anywhere. */
function downloadCodes(codes: string[]): void {
  const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'recovery-codes.txt';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function OtpEnableDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<OtpSetup>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const setupOtp = useSetupOtp();
  const enableOtp = useEnableOtp();
  const close = () => {
    setSetup(undefined);
    setRecoveryCodes(undefined);
    onClose();
  };

  const copyCodes = async (codes: string[]) => {
    await navigator.clipboard.writeText(codes.join('\n'));
    showInfo((say) => say('account.otp_recovery_copied'));
  };

  let body;
  if (recoveryCodes) {
    body = (
      <>
        <Alert type="warning" showIcon title={t('account.otp_recovery_hint')} style={{ marginBottom: 12 }} />
        <ol className="otp-recovery" data-testid="otp-recovery-codes">
          {recoveryCodes.map((code) => (
            <li key={code}>
              <Typography.Text code copyable>
                {code}
              </Typography.Text>
            </li>
          ))}
        </ol>
        <Space wrap style={{ marginBottom: 12 }}>
          <Button onClick={() => void copyCodes(recoveryCodes)} data-testid="otp-recovery-copy">
            {t('account.otp_recovery_copy')}
          </Button>
          <Button onClick={() => downloadCodes(recoveryCodes)} data-testid="otp-recovery-download">
            {t('account.otp_recovery_download')}
          </Button>
        </Space>
        <Button type="primary" block onClick={close} data-testid="otp-recovery-done">
          {t('security.otp_saved')}
        </Button>
      </>
    );
  } else if (setup) {
    const onCodes = (codes: OtpCodes) => enableOtp.mutate(codes, { onSuccess: (r) => setRecoveryCodes(r.recoveryCodes) });
    body = (
      <>
        <p>{t('account.otp_scan')}</p>
        <div style={{ textAlign: 'center' }}>
          <QrCode value={setup.uri} label={t('account.otp_title')} />
        </div>
        <p>
          {t('account.otp_secret')}:{' '}
          <Typography.Text code copyable data-testid="otp-secret">
            {setup.secret}
          </Typography.Text>
        </p>
        <OtpCodeFields pending={enableOtp.isPending} submitLabel={t('account.otp_enable')} onFinish={onCodes} />
      </>
    );
  } else {
    const onPassword = ({ password }: { password: string }) => setupOtp.mutate(password, { onSuccess: setSetup });
    body = (
      <Form layout="vertical" onFinish={onPassword} requiredMark={false}>
        <p>{t('security.otp_setup_hint')}</p>
        <Form.Item htmlFor="otp-password" name="password" label={t('security.password')} rules={rulesFor(otpSetupBody.shape.password, t)}>
          <Input.Password id="otp-password" autoComplete="current-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={setupOtp.isPending} data-testid="otp-setup-submit">
          {t('account.otp_enable')}
        </Button>
      </Form>
    );
  }
  return (
    <Modal open={open} title={t('account.otp_title')} footer={null} onCancel={close} maskClosable={false} destroyOnHidden>
      {body}
    </Modal>
  );
}
