/**
 * The client list's columns (account/client and user/client): sub clients are rows under their
 * parent (antd tree rows, expanded with the row's arrow). Actions the user may not use are not
 * shown (SPEC §6); the realm's default client cannot be deleted or disabled (the server says
 * 1074), so those are not offered for it.
 */
import DownOutlined from '@ant-design/icons/DownOutlined';
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Dropdown from 'antd/es/dropdown';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import type { ClientListItem } from '@umbo/contracts/clients';
import type { TFunction } from 'i18next';
import type { DataTableColumn } from '../../../components/data-table';
import type { Formatters } from '../../../lib/format';

/** A list row: a top-level client carries its sub clients as `children` (antd's tree rows). */
export type ClientRow = ClientListItem & { children?: ClientListItem[] };

export type ClientAction = 'info' | 'edit' | 'sub' | 'secret' | 'enable' | 'disable' | 'delete';

export interface ClientColumnOptions {
  t: TFunction;
  format: Formatters;
  allowed: (action: 'get' | 'add' | 'update' | 'delete') => boolean;
  onAction: (action: ClientAction, client: ClientListItem) => void;
}

const hasSecret = (c: ClientListItem) => c.tokenEndpointAuthMethod === 'client_secret_basic' || c.tokenEndpointAuthMethod === 'client_secret_post';

export function clientColumns({ t, format, allowed, onAction }: ClientColumnOptions): DataTableColumn<ClientRow, 'q'>[] {
  return [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('clients.col_name'),
      width: 200,
      hideable: false,
      // Text, never markup: React renders it as such. The name opens the details.
      render: (name: string, c: ClientRow) => (
        <span className="client-list__name">
          {allowed('get') ? (
            <Button type="link" size="small" className="client-list__open" onClick={() => onAction('info', c)} data-testid="client-name">
              <span dir="auto">{name}</span>
            </Button>
          ) : (
            <span dir="auto" data-testid="client-name">
              {name}
            </span>
          )}
          {c.isDefault && <Tag className="client-list__tag">{t('clients.default_client')}</Tag>}
        </span>
      ),
    },
    {
      key: 'clientId',
      dataIndex: 'clientId',
      title: t('clients.col_client_id'),
      width: 260,
      render: (id: string) => (
        <code dir="ltr" className="client-list__id" data-testid="client-id">
          {id}
        </code>
      ),
    },
    { key: 'desc', dataIndex: 'desc', title: t('clients.col_description'), width: 180, render: (d: string) => <span dir="auto">{d}</span> },
    {
      key: 'auth',
      dataIndex: 'tokenEndpointAuthMethod',
      title: t('clients.col_auth'),
      width: 130,
      defaultHidden: true,
      render: (m: ClientListItem['tokenEndpointAuthMethod']) => t(`clients.auth_short_${m}`),
    },
    {
      key: 'status',
      dataIndex: 'disabled',
      title: t('clients.col_status'),
      width: 110,
      // A dot beside plain text: the words keep the text's contrast.
      render: (disabled: boolean) => (
        <Badge
          status={disabled ? 'default' : 'success'}
          text={<span data-testid="client-status">{t(disabled ? 'clients.disabled' : 'clients.enabled')}</span>}
        />
      ),
    },
    { key: 'created', dataIndex: 'createTime', title: t('clients.col_created'), width: 170, render: (ms: number) => format.dateTime(ms) },
    {
      key: 'actions',
      title: t('clients.col_actions'),
      width: 140,
      hideable: false,
      render: (_: unknown, c: ClientRow) => <ClientActions t={t} client={c} allowed={allowed} onAction={onAction} />,
    },
  ];
}

type MenuAction = Exclude<ClientAction, 'info' | 'edit'>;
const MENU_LABELS = {
  sub: 'clients.add_sub',
  secret: 'clients.regenerate',
  enable: 'clients.enable',
  disable: 'clients.disable',
  delete: 'clients.delete',
} as const satisfies Record<MenuAction, string>;

function ClientActions({ t, client: c, allowed, onAction }: Pick<ClientColumnOptions, 't' | 'allowed' | 'onAction'> & { client: ClientListItem }) {
  const item = (key: MenuAction, danger = false) => ({
    key,
    danger,
    label: <span data-testid={`client-${key}`}>{t(MENU_LABELS[key])}</span>,
    onClick: () => onAction(key, c),
  });
  const more = [
    ...(allowed('add') && !c.parentClientId ? [item('sub')] : []),
    ...(allowed('update') && hasSecret(c) ? [item('secret')] : []),
    ...(allowed('update') && !c.isDefault ? [c.disabled ? item('enable') : item('disable', true)] : []),
    ...(allowed('delete') && !c.isDefault ? [item('delete', true)] : []),
  ];
  return (
    <Space size={4}>
      {allowed('update') && (
        <Button size="small" onClick={() => onAction('edit', c)} data-testid="client-edit">
          {t('clients.edit')}
        </Button>
      )}
      {more.length > 0 && (
        <Dropdown menu={{ items: more }} trigger={['click']}>
          <Button size="small" aria-label={t('clients.more', { name: c.name })} icon={<DownOutlined />} data-testid="client-more" />
        </Dropdown>
      )}
    </Space>
  );
}
