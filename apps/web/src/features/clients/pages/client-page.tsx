/**
 * The clients of a realm (account/client?realmId=X, domain area; SPEC §2 "client list"): for
 * holders of client.<action> in that realm. The realm defaults to the administrator's own; the
 * domain list links here with its realm.
 */
import Card from 'antd/es/card';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { RealmSelect } from '../../../components/realm-select';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { ClientsView, type ClientListFilter } from '../components/clients-view';

const SPEC: ListSpec<ClientListFilter> = { filters: ['q', 'realmId'] };

export default function ClientPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const list = useListParams(SPEC);
  if (!user) return <PageLoading />;
  const realmId = list.filters.realmId ?? user.realmId;
  return (
    <Card title={t('clients.title')} data-testid="client-page">
      <ClientsView
        // a new realm starts with closed forms and its own first page
        key={realmId}
        user={user}
        scope={{ realmId }}
        permission="client"
        list={list}
        emptyText={t('clients.empty')}
        header={
          <div className="client-list__realm">
            <label htmlFor="client-realm">{t('clients.realm')}</label>
            <RealmSelect
              id="client-realm"
              className="client-list__realm-select"
              user={user}
              value={realmId}
              onChange={(r) => list.change({ filters: { realmId: r === user.realmId ? undefined : r, q: undefined } })}
            />
          </div>
        }
      />
    </Card>
  );
}
