/** A failed look-up or decision, said inline; a throttled guess also says how long to wait (RFC 8628 §5.1). */
import Alert from 'antd/es/alert';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-error';

function waitOf(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || !error.errData || typeof error.errData !== 'object') return undefined;
  const d = error.errData as { locked?: unknown; retryAfter?: unknown };
  return d.locked === true && typeof d.retryAfter === 'number' && d.retryAfter > 0 ? Math.ceil(d.retryAfter) : undefined;
}

export function DeviceError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const wait = waitOf(error);
  const notice =
    wait === undefined
      ? undefined
      : wait >= 120
        ? t('account.locked_notice_minutes', { minutes: Math.ceil(wait / 60) })
        : t('account.locked_notice', { seconds: wait });
  const message = error instanceof ApiError && error.say ? error.say() : error instanceof Error ? error.message : String(error);
  return <Alert type="error" showIcon title={message} description={notice} className="device__error" data-testid="device-error" role="alert" />;
}
