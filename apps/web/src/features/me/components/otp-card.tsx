/** One-time password status, with the dialogs that turn it on and off. */
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOtpStatus } from '../api/get-otp';
import { OtpDisableDialog } from './otp-disable-dialog';
import { OtpEnableDialog } from './otp-enable-dialog';

export function OtpCard() {
  const { t } = useTranslation();
  const { data } = useOtpStatus();
  const [dialog, setDialog] = useState<'enable' | 'disable'>();
  const enabled = data?.enabled ?? false;
  return (
    <Card
      title={t('account.otp_title')}
      loading={!data}
      data-testid="otp-card"
      extra={
        enabled ? (
          <Button danger onClick={() => setDialog('disable')} data-testid="otp-disable">
            {t('account.otp_disable')}
          </Button>
        ) : (
          <Button type="primary" onClick={() => setDialog('enable')} data-testid="otp-enable">
            {t('account.otp_enable')}
          </Button>
        )
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('security.otp_status')}>
          <Tag color={enabled ? 'green' : 'default'} data-testid="otp-status">
            {enabled ? t('account.otp_enabled') : t('account.otp_disabled')}
          </Tag>
        </Descriptions.Item>
        {enabled && (
          <Descriptions.Item label={t('account.otp_recovery_title')}>
            {t('account.otp_recovery_left', { count: data?.recoveryCodesLeft ?? 0 })}
          </Descriptions.Item>
        )}
      </Descriptions>
      <OtpEnableDialog open={dialog === 'enable'} onClose={() => setDialog(undefined)} />
      <OtpDisableDialog open={dialog === 'disable'} onClose={() => setDialog(undefined)} />
    </Card>
  );
}
