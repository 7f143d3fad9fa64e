/**
 * Client info (SPEC §2 "client info"): every field of SPEC §3 and the OpenID Connect ones, read
 * only. Text a client was given (name, description, URLs, tips) is shown as text, never markup.
 */
import Badge from 'antd/es/badge';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import type { ClientScope, ClientView } from '@umbo/contracts/clients';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { useClient } from '../api/client-detail';
import { grantKey } from './client-form-sections';

export function ClientInfoDrawer({
  scope,
  clientId,
  actions,
  onClose,
}: {
  scope: ClientScope;
  clientId: string;
  actions?: (c: ClientView) => ReactNode;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { data, error } = useClient(scope, clientId);
  // Read-only details hold nothing focusable: on a phone the drawer's body scrolls, so it takes
  // keyboard focus itself (WCAG 2.1.1, axe scrollable-region-focusable).
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = body.current?.closest('.ant-drawer-body');
    if (!scroller) return;
    scroller.setAttribute('tabindex', '0');
    scroller.setAttribute('aria-label', t('clients.info_title', { name: data?.name ?? clientId }));
  });
  return (
    <Drawer
      open
      onClose={onClose}
      title={t('clients.info_title', { name: data?.name ?? clientId })}
      size="large"
      styles={{ wrapper: { width: 'min(760px, 100vw)' } }}
      extra={data && actions?.(data)}
      destroyOnHidden
      data-testid="client-info-drawer"
    >
      <div ref={body}>{error ? <span role="alert">{error.message}</span> : data ? <ClientFields client={data} /> : <Spin />}</div>
    </Drawer>
  );
}

function ClientFields({ client: c }: { client: ClientView }) {
  const { t } = useTranslation();
  const format = useFormat();
  const yesNo = (v: boolean) => t(v ? 'clients.yes' : 'clients.no');
  const none = t('clients.none');
  const ltr = (v: string) =>
    v ? (
      <span dir="ltr" className="client-info__value">
        {v}
      </span>
    ) : (
      none
    );
  const list = (values: readonly string[], testId?: string) =>
    values.length ? (
      <ul className="client-info__list" data-testid={testId}>
        {values.map((v) => (
          <li key={v} dir="ltr">
            {v}
          </li>
        ))}
      </ul>
    ) : (
      none
    );
  const items: { key: string; label: string; children: ReactNode }[] = [
    {
      key: 'name',
      label: t('clients.name'),
      children: (
        <span dir="auto" data-testid="client-info-name">
          {c.name}
        </span>
      ),
    },
    {
      key: 'clientId',
      label: t('clients.client_id'),
      children: (
        <>
          <code dir="ltr" className="client-info__value" data-testid="client-info-id">
            {c.clientId}
          </code>
          {c.isDefault && <Tag className="client-info__tag">{t('clients.default_client')}</Tag>}
        </>
      ),
    },
    { key: 'desc', label: t('clients.description'), children: <span dir="auto">{c.desc}</span> },
    {
      key: 'status',
      label: t('clients.col_status'),
      children: <Badge status={c.disabled ? 'default' : 'success'} text={t(c.disabled ? 'clients.disabled' : 'clients.enabled')} />,
    },
    ...(c.parentClientId
      ? [
          { key: 'parent', label: t('clients.parent'), children: ltr(c.parentClientId) },
          { key: 'allowAuthCode', label: t('clients.allow_auth_code'), children: yesNo(c.allowAuthCode) },
          { key: 'allowToken', label: t('clients.allow_token'), children: yesNo(c.allowToken) },
        ]
      : []),
    { key: 'redirect', label: t('clients.redirect_uris'), children: list(c.redirectUris, 'client-info-redirects') },
    { key: 'logout', label: t('clients.post_logout_uris'), children: list(c.postLogoutRedirectUris) },
    {
      key: 'tips',
      label: t('clients.login_tips'),
      children: c.loginTips ? (
        <span dir="auto" className="client-info__tips">
          {c.loginTips}
        </span>
      ) : (
        none
      ),
    },
    { key: 'loginUrl', label: t('clients.login_url'), children: ltr(c.loginUrl) },
    { key: 'registUrl', label: t('clients.regist_url'), children: ltr(c.registUrl) },
    { key: 'token', label: t('clients.token_expir'), children: format.number(c.tokenExpirSec) },
    { key: 'refresh', label: t('clients.refresh_expir'), children: format.number(c.refreshtokenExpirSec) },
    { key: 'recreate', label: t('clients.refresh_recreate'), children: yesNo(c.refreshTokenRecreate) },
    {
      key: 'multi',
      label: t('clients.auth_code_multi'),
      children: c.authCodeMulitUse ? <Tag color="warning">{t('clients.yes')}</Tag> : t('clients.no'),
    },
    { key: 'grants', label: t('clients.grant_types'), children: c.grantTypes.map((g) => <Tag key={g}>{t(grantKey(g))}</Tag>) },
    { key: 'scopes', label: t('clients.scopes'), children: c.scopes.length ? c.scopes.map((s) => <Tag key={s}>{s}</Tag>) : none },
    { key: 'consent', label: t('clients.consent_required'), children: yesNo(c.consentRequired) },
    { key: 'alg', label: t('clients.signing_alg'), children: c.signingAlg },
    { key: 'auth', label: t('clients.auth_method'), children: t(`clients.auth_${c.tokenEndpointAuthMethod}`) },
    { key: 'secret', label: t('clients.has_secret'), children: t(c.hasSecret ? 'clients.secret_set' : 'clients.secret_none') },
    ...(c.jwks
      ? [
          {
            key: 'jwks',
            label: t('clients.jwks'),
            children: (
              <pre dir="ltr" className="client-info__jwks" tabIndex={0}>
                {JSON.stringify(c.jwks, null, 2)}
              </pre>
            ),
          },
        ]
      : []),
    ...(c.grantTypes.includes('client_credentials') ? [{ key: 'ranges', label: t('clients.source_ranges'), children: list(c.sourceRanges) }] : []),
    { key: 'created', label: t('clients.created_at'), children: format.dateTime(c.createTime) },
    { key: 'updated', label: t('clients.updated_at'), children: format.dateTime(c.updateTime) },
  ];
  return <Descriptions column={1} size="small" bordered items={items} className="client-info" />;
}
