/**
 * Keys (account/cert/keys, keys.<action>; SPEC §3 "Key"): the caller's managed keys — generate
 * (the private key handed over once, when asked for), download the public key, set an
 * external certificate on a key, delete (refused with 1107 while a valid certificate uses it).
 */
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import type { KeyView } from '@umbo/contracts/pki';
import { can } from '@umbo/contracts/permissions';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { PageLoading } from '../../../components/page-loading';
import { confirm, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { useKeys } from '../api/get-keys';
import type { KeyCreated } from '../api/key-create';
import { useDeleteKey } from '../api/key-delete';
import { KeyGenerateDialog } from '../components/key-generate-dialog';
import { PrivateKeyDialog } from '../components/private-key-dialog';
import { fileBase, saveText } from '../components/save-file';
import { SetCertDialog } from '../components/set-cert-dialog';
import '../components/cert.css';

const SPEC: ListSpec = {};

export default function KeysPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: user } = useCurrentUser();
  const list = useListParams(SPEC);
  const [search, setSearch] = useSearchParams();
  const allowed = (action: 'query' | 'add' | 'delete' | 'import') => Boolean(user && can(user, 'keys', action));
  const { data, error, isFetching, refetch } = useKeys(allowed('query'));
  const remove = useDeleteKey();
  // the private key is held here only until its dialog is closed; never in the address
  const [shown, setShown] = useState<{ name: string; keyPem: string }>();

  const modal = search.get('modal');
  const target = search.get('key') ?? undefined;
  const openModal = (next: 'generate' | 'setCert' | undefined, keyId?: string) =>
    setSearch((prev) => {
      const q = new URLSearchParams(prev);
      if (next) q.set('modal', next);
      else q.delete('modal');
      if (keyId) q.set('key', keyId);
      else q.delete('key');
      return q;
    });

  const created = (k: KeyCreated) => {
    openModal(undefined);
    showInfo(() => t('cert.key_generated', { name: k.name }));
    if (k.keyPem) setShown({ name: k.name, keyPem: k.keyPem });
  };

  const columns = useMemo((): DataTableColumn<KeyView>[] => {
    const onDelete = (k: KeyView) =>
      confirm({
        title: t('cert.key_confirm_delete', { name: k.name }),
        onOk: () => remove.mutateAsync(k.id).then(() => showInfo(() => t('cert.key_deleted'))),
      });
    return [
      {
        key: 'name',
        dataIndex: 'name',
        title: t('cert.key_name'),
        width: 160,
        hideable: false,
        render: (n: string) => (
          <span dir="ltr" data-testid="key-name">
            {n}
          </span>
        ),
      },
      {
        key: 'algorithm',
        title: t('cert.key_algorithm_label'),
        width: 140,
        render: (_: unknown, k: KeyView) => <span dir="ltr">{k.algorithm === 'Ed25519' ? 'Ed25519' : `${k.algorithm} ${k.strength}`}</span>,
      },
      { key: 'description', dataIndex: 'description', title: t('cert.description'), width: 200, render: (d: string) => <span dir="auto">{d}</span> },
      { key: 'validCertCount', dataIndex: 'validCertCount', title: t('cert.key_valid_certs'), width: 120, render: (n: number) => format.number(n) },
      {
        key: 'fingerprint',
        dataIndex: 'fingerprint',
        title: t('cert.fingerprint'),
        width: 240,
        defaultHidden: true,
        render: (fp: string) => (
          <code className="cert-code" dir="ltr">
            {fp}
          </code>
        ),
      },
      {
        key: 'createdAt',
        dataIndex: 'createdAt',
        title: t('cert.created_at'),
        width: 170,
        className: 'cert-nowrap',
        render: (ms: number) => format.dateTime(ms),
      },
      {
        key: 'actions',
        title: t('cert.actions'),
        width: 300,
        hideable: false,
        render: (_: unknown, k: KeyView) => (
          <div className="cert-actions">
            <Button
              size="small"
              icon={<DownloadOutlined />}
              onClick={() => saveText(`${fileBase(k.name, 'key')}.pub.pem`, k.publicKeyPem)}

              data-testid="key-public"
            >
              {t('cert.key_public')}
            </Button>
            {allowed('import') && (
              <Button size="small" onClick={() => openModal('setCert', k.id)} data-testid="key-set-cert">
                {t('cert.set_cert')}
              </Button>
            )}
            {allowed('delete') && (
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                onClick={() => onDelete(k)}

                data-testid="key-delete"
              >
                {t('cert.delete')}
              </Button>
            )}
          </div>
        ),
      },
    ];
    // `allowed` reads the user; `openModal` the address
  }, [t, format, user, remove, search]);

  if (!user) return <PageLoading />;
  return (
    <Card
      title={t('menu.keys')}
      data-testid="keys-page"
      extra={
        allowed('add') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => openModal('generate')} data-testid="key-generate">
            {t('cert.key_generate')}
          </Button>
        )
      }
    >
      <DataTable
        tableId="cert-keys"
        columns={columns}
        list={list}
        data={data && { items: data.items, total: data.items.length }}
        rowKey="id"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        scrollX={1000}
        rowTestId="key-row"
        emptyText={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cert.keys_empty')} />}
      />
      {modal === 'generate' && allowed('add') && <KeyGenerateDialog onClose={() => openModal(undefined)} onCreated={created} />}
      {modal === 'setCert' && allowed('import') && <SetCertDialog keyId={target} onClose={() => openModal(undefined)} />}
      {shown && <PrivateKeyDialog name={shown.name} keyPem={shown.keyPem} onClose={() => setShown(undefined)} />}
    </Card>
  );
}
