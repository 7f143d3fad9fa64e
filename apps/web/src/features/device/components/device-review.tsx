/**
 * What the user approves: the application, its realm, the scopes it asks for, and the code to
 * compare with the device's screen (RFC 8628 §3.3.1: a code that came in the link must still
 * be checked by the user, or a link from an attacker would approve the attacker's device).
 */
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import type { DeviceRequestInfo } from '@umbo/contracts/device';
import type { Phrases } from '@umbo/contracts/phrases/types';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { DeviceError } from './device-error';

type ScopeKey = Extract<keyof Phrases['device'], `scope_${string}`>;
const SCOPE_KEYS = new Set<string>(['scope_openid', 'scope_profile', 'scope_email', 'scope_phone', 'scope_offline_access'] satisfies ScopeKey[]);

export function DeviceReview(props: {
  request: DeviceRequestInfo;
  /** the decision being sent (true: approve), undefined while none is */
  deciding: boolean | undefined;
  error: unknown;
  onDecide: (approve: boolean) => void;
  onAnother: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const { request } = props;
  const scopeLabel = (s: string) => (SCOPE_KEYS.has(`scope_${s}`) ? t(`device.scope_${s}` as `device.${ScopeKey}`) : s);
  const busy = props.deciding !== undefined;
  return (
    <div data-testid="device-review">
      <h2 className="device__title">{t('device.review_title')}</h2>
      <p className="device__lead">{t('device.review_lead', { name: request.clientName })}</p>
      <p className="device__check">{t('device.code_check')}</p>
      <div className="device__code" dir="ltr" data-testid="device-code">
        {request.userCode}
      </div>
      <Descriptions column={1} size="small" bordered className="device__facts">
        <Descriptions.Item label={t('device.client_name')}>
          <span dir="auto" data-testid="device-client-name">
            {request.clientName}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.client_id')}>
          <span dir="ltr" className="device__mono">
            {request.clientId}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.realm')}>
          <span dir="auto">{request.realmName === request.realmId ? request.realmId : `${request.realmName} (${request.realmId})`}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.scopes')}>
          <ul className="device__scopes" data-testid="device-scopes">
            {request.scopes.map((s) => (
              <li key={s}>
                {scopeLabel(s)} <span className="device__scope-id">({s})</span>
              </li>
            ))}
          </ul>
        </Descriptions.Item>
      </Descriptions>
      <p className="device__expires">{t('device.expires', { time: format.dateTime(request.expiresAt) })}</p>
      <Alert type="warning" showIcon title={t('device.warning')} className="device__warning" />
      <DeviceError error={props.error} />
      <div className="device__actions">
        <Button type="primary" size="large" loading={props.deciding === true} disabled={busy} onClick={() => props.onDecide(true)} data-testid="device-approve">
          {t('device.approve')}
        </Button>
        <Button size="large" danger loading={props.deciding === false} disabled={busy} onClick={() => props.onDecide(false)} data-testid="device-deny">
          {t('device.deny')}
        </Button>
        {Boolean(props.error) && (
          <Button type="link" onClick={props.onAnother}>
            {t('device.another')}
          </Button>
        )}
      </div>
    </div>
  );
}
