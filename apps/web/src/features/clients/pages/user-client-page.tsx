/**
 * The clients a developer owns (user/client, user area; SPEC §2): the same list and forms as
 * the administrators' page, through /api/users/user/clients (userClient.<action>; the owner is
 * always the signed-in account).
 */
import Card from 'antd/es/card';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { ClientsView, type ClientListFilter } from '../components/clients-view';

const SPEC: ListSpec<ClientListFilter> = { filters: ['q'] };

export default function UserClientPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const list = useListParams(SPEC);
  if (!user) return <PageLoading />;
  return (
    <Card title={t('clients.own_title')} data-testid="user-client-page">
      <ClientsView user={user} scope="own" permission="userClient" list={list} emptyText={t('clients.empty_own')} />
    </Card>
  );
}
