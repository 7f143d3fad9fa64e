/**
 * A realm's OAuth records (account/oauthList?realmId=X, domain area; SPEC §2, §3 "OAuth
 * record"): for holders of oauthList in that realm, with revoke for oauthList.delete.
 */
import Card from 'antd/es/card';
import { can } from '@umbo/contracts/permissions';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { RealmSelect } from '../../../components/realm-select';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { RecordsTable } from '../components/records-table';
import '../components/records.css';

const SPEC: ListSpec<'realmId'> = { filters: ['realmId'] };

export default function OAuthListPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const list = useListParams(SPEC);
  if (!user) return <PageLoading />;
  const realmId = list.filters.realmId ?? user.realmId;
  return (
    <Card title={t('clients.rec_title')} data-testid="oauth-list-page">
      <RecordsTable
        key={realmId}
        scope={{ realmId }}
        list={list}
        canRevoke={can(user, 'oauthList', 'delete')}
        emptyText={t('clients.rec_empty')}
        toolbar={
          <div className="records__realm">
            <label htmlFor="records-realm">{t('clients.realm')}</label>
            <RealmSelect
              id="records-realm"
              className="records__realm-select"
              user={user}
              value={realmId}
              onChange={(r) => list.change({ filters: { realmId: r === user.realmId ? undefined : r } })}
            />
          </div>
        }
      />
    </Card>
  );
}
