/**
 * Account root certificates of a domain (account/domain/cert, domainCert.<action>; DESIGN.md
 * §4): the realm's chain (platform root → realm intermediate, renewable) and the account CAs of the
 * realm's accounts, searched by account name, keyset paged; view, renew (same key: issued
 * certificates keep verifying), revoke after a warning, replace a revoked one (new key). The
 * platform root is renewed (same key) by administrators of master only, as the server decides.
 * Realm, search and position live in the address.
 */
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Drawer from 'antd/es/drawer';
import Empty from 'antd/es/empty';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import type { CaView } from '@umbo/contracts/pki';
import { canIn } from '@umbo/contracts/permissions';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyBlock } from '../../../components/copy-block';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { PageLoading } from '../../../components/page-loading';
import { RealmSelect } from '../../../components/realm-select';
import { confirm, showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { useRenewAccountCa, useRenewPlatformRoot, useRenewRealmIntermediate, useReplaceAccountCa, useRevokeAccountCa } from '../api/account-ca-actions';
import { useAccountCas } from '../api/realm-account-cas';
import { useRealmChain } from '../api/realm-chain';
import { CaDetails } from '../components/ca-details';
import { StatusTag } from '../components/cert-labels';
import { KeysetPager, useKeyset } from '../components/keyset-pager';
import { RevokeDialog } from '../components/revoke-dialog';
import '../components/cert.css';

type Param = 'realmId' | 'q' | 'cursor';
const SPEC: ListSpec<Param> = { filters: ['realmId', 'q', 'cursor'] };

export default function DomainCertPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: user } = useCurrentUser();
  const list = useListParams(SPEC);
  const f = list.filters;
  const realmId = f.realmId ?? user?.realmId ?? '';
  // in the realm shown, as the guard decides: a role bound in another realm does not count
  const allowed = (action: 'query' | 'get' | 'update') => canIn(user, realmId, 'domainCert', action);
  const chain = useRealmChain(realmId, Boolean(realmId) && allowed('query'));
  const cas = useAccountCas({ realmId, q: f.q, cursor: f.cursor, limit: list.pageSize }, Boolean(realmId) && allowed('query'));
  const renew = useRenewAccountCa(realmId);
  const revoke = useRevokeAccountCa(realmId);
  const renewIntermediate = useRenewRealmIntermediate(realmId);
  const renewRoot = useRenewPlatformRoot();
  const replace = useReplaceAccountCa(realmId);
  // the server renews the root only for an account of master holding domainCert.update there
  const rootAdmin = user?.realmId === 'master' && canIn(user, 'master', 'domainCert', 'update');
  const [viewing, setViewing] = useState<CaView>();
  const [revoking, setRevoking] = useState<CaView>();
  const keyset = useKeyset(f.cursor, cas.data?.next, (cursor) => list.change({ filters: { cursor } }));

  const columns = useMemo((): DataTableColumn<CaView>[] => {
    const name = (ca: CaView) => ca.accountName ?? ca.accountId ?? ca.id;
    return [
      {
        key: 'account',
        dataIndex: 'accountName',
        title: t('cert.account'),
        width: 160,
        hideable: false,
        render: (_: unknown, ca: CaView) => (
          <Button type="link" size="small" onClick={() => setViewing(ca)} data-testid="account-ca-name">
            <span dir="auto">{name(ca)}</span>
          </Button>
        ),
      },
      {
        key: 'subject',
        dataIndex: 'subject',
        title: t('cert.subject'),
        width: 260,
        render: (s: string) => (
          <span dir="ltr" className="cert-code">
            {s}
          </span>
        ),
      },
      { key: 'status', dataIndex: 'status', title: t('cert.status'), width: 110, render: (s: CaView['status']) => <StatusTag status={s} /> },
      {
        key: 'notBefore',
        dataIndex: 'notBeforeTs',
        title: t('cert.not_before'),
        width: 170,
        className: 'cert-nowrap',
        render: (ms: number) => format.dateTime(ms),
      },
      {
        key: 'expireAt',
        dataIndex: 'expireAtTs',
        title: t('cert.expire_at'),
        width: 170,
        className: 'cert-nowrap',
        render: (ms: number) => format.dateTime(ms),
      },
      {
        key: 'sn',
        dataIndex: 'sn',
        title: t('cert.serial'),
        width: 220,
        defaultHidden: true,
        render: (sn: string) => (
          <code className="cert-code" dir="ltr">
            {sn}
          </code>
        ),
      },
      {
        key: 'actions',
        title: t('cert.actions'),
        width: 190,
        hideable: false,
        render: (_: unknown, ca: CaView) =>
          allowed('update') && (
            <div className="cert-actions">
              {ca.status === 'revoked' ? (
                // a revoked key is never renewed: the account gets a new CA with a new key
                <Button
                  size="small"
                  onClick={() =>
                    confirm({
                      title: t('cert.confirm_replace', { name: name(ca) }),
                      content: t('cert.confirm_replace_detail'),
                      onOk: () => replace.mutateAsync(ca.id).then(() => showInfo(() => t('cert.replaced'))),
                    })
                  }
                  data-testid="account-ca-replace"
                >
                  {t('cert.replace')}
                </Button>
              ) : (
                <Button
                  size="small"
                  onClick={() =>
                    confirm({
                      title: t('cert.confirm_renew', { name: name(ca) }),
                      onOk: () => renew.mutateAsync(ca.id).then(() => showInfo(() => t('cert.renewed'))),
                    })
                  }
                  data-testid="account-ca-renew"
                >
                  {t('cert.renew')}
                </Button>
              )}
              {ca.status !== 'revoked' && (
                <Button size="small" danger onClick={() => setRevoking(ca)} data-testid="account-ca-revoke">
                  {t('cert.revoke')}
                </Button>
              )}
            </div>
          ),
      },
    ];
  }, [t, format, user, renew, replace]);

  if (!user) return <PageLoading />;
  const caName = (ca: CaView) => ca.accountName ?? ca.accountId ?? ca.id;

  return (
    <Card title={t('menu.domainCert')} data-testid="domain-cert-page">
      <div className="cert-toolbar cert-alert">
        <div className="cert-toolbar__field">
          <label htmlFor="domain-cert-realm">{t('cert.realm')}</label>
          <RealmSelect
            id="domain-cert-realm"
            className="cert-toolbar__select"
            user={user}
            value={realmId}
            onChange={(r) => list.change({ filters: { realmId: r === user.realmId ? undefined : r, q: undefined, cursor: undefined } })}
          />
        </div>
      </div>
      <h2 className="ant-typography">{t('cert.chain_title')}</h2>
      {chain.error && <span role="alert">{chain.error.message}</span>}
      {chain.data && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <CaDetails
              ca={chain.data.root}
              title={t('cert.chain_root')}
              testId="chain-root"
              actions={
                rootAdmin &&
                chain.data.root.status !== 'revoked' && (
                  <Button
                    size="small"
                    loading={renewRoot.isPending}
                    onClick={() =>
                      confirm({
                        title: t('cert.confirm_renew_root'),
                        content: t('cert.confirm_renew_root_detail'),
                        onOk: () => renewRoot.mutateAsync().then(() => showInfo(() => t('cert.renewed_root'))),
                      })
                    }
                    data-testid="root-renew"
                  >
                    {t('cert.renew_root')}
                  </Button>
                )
              }
            />
          </Col>
          <Col xs={24} lg={12}>
            <CaDetails
              ca={chain.data.intermediate}
              title={t('cert.chain_intermediate')}
              testId="chain-intermediate"
              actions={
                allowed('update') &&
                chain.data.intermediate.status !== 'revoked' && (
                  <Button
                    size="small"
                    loading={renewIntermediate.isPending}
                    onClick={() =>
                      confirm({
                        title: t('cert.confirm_renew_intermediate'),
                        content: t('cert.confirm_renew_intermediate_detail'),
                        onOk: () => renewIntermediate.mutateAsync().then(() => showInfo(() => t('cert.renewed_intermediate'))),
                      })
                    }
                    data-testid="intermediate-renew"
                  >
                    {t('cert.renew_intermediate')}
                  </Button>
                )
              }
            />
          </Col>
        </Row>
      )}
      <h2 className="ant-typography cert-section">{t('cert.account_cas_title')}</h2>
      <DataTable
        tableId="account-cas"
        columns={columns}
        list={list}
        data={cas.data && { items: cas.data.items, total: cas.data.items.length }}
        rowKey="id"
        loading={cas.isFetching}
        error={cas.error}
        onReload={() => void cas.refetch()}
        scrollX={1100}
        rowTestId="account-ca-row"
        emptyText={f.q ? undefined : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cert.account_cas_empty')} />}
        toolbar={
          <Input.Search
            key={f.q ?? ''}
            id="account-ca-search"
            className="cert-search"
            aria-label={t('cert.account_search')}
            placeholder={t('cert.account_search')}
            allowClear
            defaultValue={f.q}
            enterButton={t('cert.search')}
            onSearch={(q) => list.change({ filters: { q, cursor: undefined } })}
          />
        }
        pager={<KeysetPager state={keyset} testId="account-ca-pager" />}
      />
      {viewing && (
        <Drawer
          open
          onClose={() => setViewing(undefined)}
          title={t('cert.ca_view_title', { name: caName(viewing) })}
          size="large"
          styles={{ wrapper: { width: 'min(720px, 100vw)' } }}
          destroyOnHidden
          data-testid="account-ca-drawer"
        >
          <CaDetails ca={viewing} />
          <h3 className="cert-section">{t('cert.cert_pem')}</h3>
          <CopyBlock text={viewing.certPem} label={t('cert.cert_pem')} multiline testId="account-ca-pem" />
        </Drawer>
      )}
      {revoking && (
        <RevokeDialog
          title={t('cert.ca_revoke_title', { name: caName(revoking) })}
          warning={t('cert.ca_revoke_warning')}
          onRevoke={(reason) => revoke.mutateAsync({ caId: revoking.id, reason }).then(() => showInfo(() => t('cert.ca_revoked_done')))}
          onClose={() => setRevoking(undefined)}
        />
      )}
    </Card>
  );
}
