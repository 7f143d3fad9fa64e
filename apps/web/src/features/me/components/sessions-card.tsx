/**
 * Signed-in devices: device, IP and times, each but this one revocable. A list, not a table
 * (components/data-table.tsx): a handful of devices, each read as a whole, nothing to page,
 * sort or hide.
 */
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Popconfirm from 'antd/es/popconfirm';
import List from 'antd/es/list';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { useSessions, type SessionItem } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import { deviceName } from '../lib/device-name';

export function SessionsCard() {
  const { t } = useTranslation();
  const { dateTime: time } = useFormat();
  const { data, isLoading } = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const others = (data?.items ?? []).filter((row) => !row.current).length;
  const signOutOthers = () =>
    revokeOthers.mutate(undefined, { onSuccess: ({ revoked }) => showInfo((say) => say('account.sessions_revoked_others', { count: revoked })) });
  return (
    <Card
      title={t('account.sessions_title')}
      extra={
        others > 0 && (
          <Popconfirm title={t('account.sessions_revoke_others_confirm')} onConfirm={signOutOthers}>
            <Button size="small" danger loading={revokeOthers.isPending} data-testid="sessions-revoke-others">
              {t('account.sessions_revoke_others')}
            </Button>
          </Popconfirm>
        )
      }
      data-testid="sessions-card"
    >
      <List<SessionItem>
        loading={isLoading}
        dataSource={data?.items ?? []}
        renderItem={(row) => (
          <List.Item
            data-testid="session-item"
            actions={
              row.current
                ? []
                : [
                    <Popconfirm key="revoke" title={t('account.session_revoke_confirm')} onConfirm={() => revoke.mutate(row.id)}>
                      <Button size="small" danger>
                        {t('account.session_revoke')}
                      </Button>
                    </Popconfirm>,
                  ]
            }
          >
            <List.Item.Meta
              title={
                <span title={row.userAgent}>
                  {deviceName(row.userAgent)} {row.current && <Tag color="blue">{t('account.session_current')}</Tag>}
                </span>
              }
              description={
                <span className="session__facts">
                  <span>
                    {t('account.session_ip')}: {row.ip}
                  </span>
                  <span>
                    {t('account.session_created')}: {time(row.createdAt)}
                  </span>
                  <span>
                    {t('account.session_last_seen')}: {time(row.lastSeenAt)}
                  </span>
                  <span>
                    {t('security.session_expires')}: {time(row.expiresAt)}
                  </span>
                </span>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
