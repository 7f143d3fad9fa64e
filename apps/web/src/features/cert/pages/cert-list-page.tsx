/**
 * Certificates (account/cert/list, certList.<action>; SPEC §2–§3): the caller's certificates
 * with filters (status, expiring within N days, key, CN, serial number), keyset paging, view,
 * reissue, revoke with an RFC 5280 reason, issue (drawer) and set cert. The own account root
 * certificate heads the page with Edit CA (cert.edit). Filters, position and the open drawer
 * live in the address (STYLE §14).
 */
import FileDoneOutlined from '@ant-design/icons/FileDoneOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import type { CertView } from '@umbo/contracts/pki';
import { can } from '@umbo/contracts/permissions';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/data-table';
import { PageLoading } from '../../../components/page-loading';
import { confirm, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { useReissueCert } from '../api/cert-reissue';
import { useRevokeCert } from '../api/cert-revoke';
import { useCerts } from '../api/get-certs';
import { useKeys } from '../api/get-keys';
import { certColumns, type CertAction } from '../components/cert-columns';
import { CertFilters, type CertFilter } from '../components/cert-filters';
import { CertViewDrawer } from '../components/cert-view-drawer';
import { IssueDrawer } from '../components/issue-drawer';
import { KeysetPager, useKeyset } from '../components/keyset-pager';
import { OwnCaBar } from '../components/own-ca-bar';
import { RevokeDialog } from '../components/revoke-dialog';
import { SetCertDialog } from '../components/set-cert-dialog';
import '../components/cert.css';

type Param = 'status' | 'expiringWithinDays' | 'keyId' | 'cn' | 'sn' | 'cursor';
const SPEC: ListSpec<Param> = { filters: ['status', 'expiringWithinDays', 'keyId', 'cn', 'sn', 'cursor'] };
type Modal = 'issue' | 'view' | 'setCert';
const MODALS: readonly string[] = ['issue', 'view', 'setCert'];

export default function CertListPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: user } = useCurrentUser();
  const list = useListParams(SPEC);
  const f = list.filters;
  const [search, setSearch] = useSearchParams();
  const allowed = (action: 'query' | 'get' | 'add' | 'update' | 'import') => Boolean(user && can(user, 'certList', action));
  const { data, error, isFetching, refetch } = useCerts({ ...f, limit: list.pageSize }, allowed('query'));
  const keys = useKeys(Boolean(user && can(user, 'keys', 'query')));
  const reissue = useReissueCert();
  const revoke = useRevokeCert();
  const [revoking, setRevoking] = useState<CertView>();
  const keyset = useKeyset(f.cursor, data?.next, (cursor) => list.change({ filters: { cursor } }));

  const modalParam = search.get('modal') ?? '';
  const modal = MODALS.includes(modalParam) ? (modalParam as Modal) : undefined;
  const target = search.get('cert') ?? undefined;
  const openModal = (next: Modal | undefined, certId?: string) =>
    setSearch((prev) => {
      const q = new URLSearchParams(prev);
      if (next) q.set('modal', next);
      else q.delete('modal');
      if (certId) q.set('cert', certId);
      else q.delete('cert');
      return q;
    });

  const columns = useMemo(() => {
    const onAction = (action: CertAction, c: CertView) => {
      if (action === 'view') return openModal('view', c.id);
      if (action === 'revoke') return setRevoking(c);
      confirm({
        title: t('cert.confirm_reissue', { cn: c.cn }),
        onOk: () =>
          reissue.mutateAsync(c.id).then((fresh) => {
            showInfo(() => t('cert.reissued'));
            openModal('view', fresh.id);
          }),
      });
    };
    return certColumns({ t, format, allowed, onAction });
    // `allowed` reads the user; `openModal` the address
  }, [t, format, user, reissue, search]);

  if (!user) return <PageLoading />;
  const filter: CertFilter = { status: f.status, expiringWithinDays: f.expiringWithinDays, keyId: f.keyId, cn: f.cn, sn: f.sn };
  const filtered = Object.values(filter).some(Boolean);

  return (
    <Card
      title={t('menu.certList')}
      data-testid="cert-list-page"
      extra={
        <div className="cert-actions">
          {can(user, 'certRecord', 'query') && (
            <Link to="/account/cert/certRecord">
              <FileDoneOutlined /> {t('cert.records_all')}
            </Link>
          )}
        </div>
      }
    >
      <OwnCaBar canRead={can(user, 'cert', 'get') || allowed('query')} canEdit={can(user, 'cert', 'edit')} />
      <DataTable
        tableId="cert-list"
        columns={columns}
        list={list}
        data={data && { items: data.items, total: data.items.length }}
        rowKey="id"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        scrollX={1700}
        rowTestId="cert-row"
        emptyText={filtered ? undefined : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cert.list_empty')} />}
        toolbar={
          <>
            <CertFilters
              key={JSON.stringify(filter)}
              value={filter}
              keys={keys.data?.items ?? []}
              onApply={(next) => list.change({ filters: { ...next, cursor: undefined } })}
            />
            <div className="cert-actions cert-section">
              {allowed('add') && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => openModal('issue')} data-testid="cert-issue">
                  {t('cert.issue')}
                </Button>
              )}
              {allowed('import') && (
                <Button onClick={() => openModal('setCert')} data-testid="cert-set-cert">
                  {t('cert.set_cert')}
                </Button>
              )}
            </div>
          </>
        }
        pager={<KeysetPager state={keyset} testId="cert-pager" />}
      />
      {modal === 'issue' && allowed('add') && (
        <IssueDrawer keyId={search.get('key') ?? undefined} onClose={() => openModal(undefined)} onIssued={(c) => openModal('view', c.id)} />
      )}
      {modal === 'view' && target && allowed('get') && <CertViewDrawer certId={target} onClose={() => openModal(undefined)} />}
      {modal === 'setCert' && allowed('import') && <SetCertDialog onClose={() => openModal(undefined)} />}
      {revoking && (
        <RevokeDialog
          title={t('cert.revoke_title', { cn: revoking.cn })}
          warning={t('cert.revoke_warning')}
          onRevoke={(reason) => revoke.mutateAsync({ certId: revoking.id, reason }).then(() => showInfo(() => t('cert.revoked_done')))}
          onClose={() => setRevoking(undefined)}
        />
      )}
    </Card>
  );
}
