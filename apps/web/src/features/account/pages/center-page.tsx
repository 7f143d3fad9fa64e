/**
 * Basic information (account/center). Shows what the server's current-user answer holds;
 * the remaining SPEC §3 "Account centre" fields arrive with the self-service API (issue 3).
 */
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { useCurrentUser } from '../../../lib/session/get-current-user';

export default function CenterPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  if (!user) return <PageLoading />;
  return (
    <Card title={t('menu.center')}>
      <Descriptions column={1} bordered size="middle" data-testid="account-center">
        <Descriptions.Item label={t('pages.account_name')}>{user.name}</Descriptions.Item>
        <Descriptions.Item label={t('pages.account_id')}>{user.id}</Descriptions.Item>
        <Descriptions.Item label={t('pages.realm')}>{user.realmId}</Descriptions.Item>
        <Descriptions.Item label={t('pages.roles')}>
          {user.roles.map((role) => (
            <Tag key={role.id}>{role.name}</Tag>
          ))}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
