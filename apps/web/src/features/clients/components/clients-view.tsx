/**
 * A list of clients with everything done to them (SPEC §2 "client list", client detail / edit /
 * info, son-client add), for a realm's administrators (account/client) and for a developer's
 * own clients (user/client). Paging and the search live in the address; so does the open form
 * or details (`modal` = create | edit | info | sub, `client` = its id: a routed modal, STYLE
 * §14). A secret never goes into the address: it is held here until its dialog is closed.
 */
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import type { ClientCreated, ClientListItem, ClientScope } from '@umbo/contracts/clients';
import { can, type CurrentUser } from '@umbo/contracts/permissions';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../../components/data-table';
import { confirm, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import type { ListState } from '../../../lib/use-list-params';
import { useDeleteClient } from '../api/client-delete';
import { useClientList } from '../api/client-list';
import { useUpdateClient } from '../api/client-save';
import { useRegenerateSecret } from '../api/client-secret';
import { clientColumns, type ClientAction, type ClientRow } from './client-columns';
import { ClientFormDrawer } from './client-form';
import { ClientInfoDrawer } from './client-info';
import { SecretDialog, type ShownSecret } from './secret-dialog';
import { SubClientDialog } from './sub-client-dialog';
import './clients.css';

export type ClientListFilter = 'q' | 'realmId';
type Modal = 'create' | 'edit' | 'info' | 'sub';
const MODALS: readonly string[] = ['create', 'edit', 'info', 'sub'];

export interface ClientsViewProps {
  user: CurrentUser;
  scope: ClientScope;
  /** client (a realm's administrators) or userClient (a developer's own) */
  permission: 'client' | 'userClient';
  list: ListState<ClientListFilter>;
  /** above the search: the realm chooser of the administrators' page */
  header?: ReactNode;
  emptyText: string;
}

export function ClientsView({ user, scope, permission, list, header, emptyText }: ClientsViewProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const [search, setSearch] = useSearchParams();
  const [secret, setSecret] = useState<ShownSecret>();
  const allowed = (action: 'get' | 'add' | 'update' | 'delete' | 'query') => can(user, permission, action);

  const { data, error, isFetching, refetch } = useClientList(scope, { q: list.filters.q, limit: list.pageSize, offset: list.offset }, allowed('query'));
  const update = useUpdateClient(scope);
  const remove = useDeleteClient(scope);
  const regenerate = useRegenerateSecret(scope);

  const modalParam = search.get('modal') ?? '';
  const modal = MODALS.includes(modalParam) ? (modalParam as Modal) : undefined;
  const target = search.get('client') ?? undefined;
  const openModal = (next: Modal | undefined, clientId?: string) =>
    setSearch((prev) => {
      const q = new URLSearchParams(prev);
      if (next) q.set('modal', next);
      else q.delete('modal');
      if (clientId) q.set('client', clientId);
      else q.delete('client');
      return q;
    });
  const close = () => openModal(undefined);
  const created = (c: ClientCreated) => {
    close();
    if (c.clientSecret) setSecret({ clientId: c.client.clientId, clientSecret: c.clientSecret });
  };

  const onAction = (action: ClientAction, c: ClientListItem) => {
    if (action === 'info' || action === 'edit' || action === 'sub') return openModal(action, c.clientId);
    if (action === 'secret')
      return confirm({
        title: t('clients.confirm_regenerate', { name: c.name }),
        onOk: () => regenerate.mutateAsync(c.clientId).then((answer) => setSecret(answer)),
      });
    if (action === 'delete')
      return confirm({
        title: t('clients.confirm_delete', { name: c.name }),
        onOk: () =>
          remove.mutateAsync(c.clientId).then(() => {
            if (target === c.clientId) close();
            showInfo((say) => say('clients.deleted'));
          }),
      });
    return confirm({
      title: t(action === 'enable' ? 'clients.confirm_enable' : 'clients.confirm_disable', { name: c.name }),
      onOk: () =>
        update
          .mutateAsync({ clientId: c.clientId, body: { disabled: action === 'disable' } })
          .then(() => showInfo((say) => say(action === 'enable' ? 'clients.enabled_done' : 'clients.disabled_done'))),
    });
  };

  const columns = useMemo(
    () => clientColumns({ t, format, allowed, onAction }),
    // `allowed` and `onAction` read the user, the scope, the address and the mutations
    [t, format, user, scope, search, update, remove, regenerate],
  );
  // Sub clients as rows under their parent; a parent without any has no arrow.
  const rows = useMemo(
    () => data && { total: data.total, items: data.items.map((c): ClientRow => ({ ...c, children: c.subClients?.length ? c.subClients : undefined })) },
    [data],
  );
  const parent = target ? (data?.items.find((c) => c.clientId === target) ?? { clientId: target, name: target }) : undefined;

  return (
    <>
      {header}
      <DataTable
        tableId={`clients-${permission}`}
        columns={columns}
        list={list}
        data={rows}
        rowKey="clientId"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        // the columns' widths: narrower screens scroll sideways
        scrollX={1060}
        rowTestId="client-row"
        emptyText={list.filters.q ? undefined : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />}
        toolbar={
          <Space wrap>
            <Input.Search
              key={list.filters.q ?? ''}
              id="client-search"
              className="client-list__search"
              aria-label={t('clients.search')}
              placeholder={t('clients.search')}
              allowClear
              defaultValue={list.filters.q}
              enterButton={t('clients.search_button')}
              onSearch={(q) => list.change({ filters: { q } })}
            />
            {allowed('add') && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openModal('create')} data-testid="client-create">
                {t('clients.create')}
              </Button>
            )}
          </Space>
        }
      />
      {modal === 'create' && allowed('add') && <ClientFormDrawer scope={scope} onClose={close} onCreated={created} />}
      {modal === 'edit' && target && allowed('update') && <ClientFormDrawer scope={scope} clientId={target} onClose={close} onCreated={created} />}
      {modal === 'info' && target && allowed('get') && (
        <ClientInfoDrawer
          scope={scope}
          clientId={target}
          onClose={close}
          actions={(c) =>
            allowed('update') && (
              <Button onClick={() => openModal('edit', c.clientId)} data-testid="client-info-edit">
                {t('clients.edit')}
              </Button>
            )
          }
        />
      )}
      {modal === 'sub' && parent && allowed('add') && <SubClientDialog scope={scope} parent={parent} onClose={close} onCreated={created} />}
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(undefined)} />}
    </>
  );
}
