/** After the decision: the device gets its tokens on its next poll, or access_denied (RFC 8628 §3.5). */
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import type { DeviceDecisionResult } from '@umbo/contracts/device';
import { useTranslation } from 'react-i18next';

export function DeviceResult({ result, onAnother }: { result: DeviceDecisionResult; onAnother: () => void }) {
  const { t } = useTranslation();
  const approved = result.status === 'approved';
  return (
    <Result
      status={approved ? 'success' : 'info'}
      title={t(approved ? 'device.approved_title' : 'device.denied_title')}
      subTitle={t(approved ? 'device.approved_desc' : 'device.denied_desc', { name: result.clientName })}
      extra={
        <Button onClick={onAnother} data-testid="device-another">
          {t('device.another')}
        </Button>
      }
      data-testid={approved ? 'device-approved' : 'device-denied'}
    />
  );
}
