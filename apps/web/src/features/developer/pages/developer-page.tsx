/**
 * The developer page (SPEC §2 "developer page"; user area, for holders of userClient): how to
 * connect an application to the user's realm — its discovery URL, the endpoints, and sample
 * requests for a chosen client, each copyable. Text only: nothing is sent from here.
 */
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Select from 'antd/es/select';
import Typography from 'antd/es/typography';
import type { ClientListItem } from '@umbo/contracts/clients';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CopyBlock } from '../../../components/copy-block';
import { PageLoading } from '../../../components/page-loading';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useDiscovery } from '../api/get-discovery';
import { useOwnClients } from '../api/get-own-clients';
import { buildSamples, discoveryUrl, endpointsOf, type Endpoints } from '../components/snippets';
import '../components/developer.css';

const ENDPOINTS: (readonly [keyof Endpoints, string])[] = [
  ['authorization_endpoint', 'ep_authorization'],
  ['token_endpoint', 'ep_token'],
  ['userinfo_endpoint', 'ep_userinfo'],
  ['jwks_uri', 'ep_jwks'],
  ['introspection_endpoint', 'ep_introspection'],
  ['revocation_endpoint', 'ep_revocation'],
  ['end_session_endpoint', 'ep_end_session'],
  ['device_authorization_endpoint', 'ep_device'],
];

export default function DeveloperPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const [search, setSearch] = useSearchParams();
  const realmId = user?.realmId ?? '';
  const discovery = useDiscovery(realmId);
  const clients = useOwnClients(Boolean(user));
  // the document when it answers; else the fixed paths under this origin (DESIGN.md §5)
  const endpoints = discovery.data ?? endpointsOf(`${window.location.origin}/realms/${realmId}`);
  // sub clients are clients too: each can be picked
  const all = useMemo(() => (clients.data?.items ?? []).flatMap((c): ClientListItem[] => [c, ...(c.subClients ?? [])]), [clients.data]);
  const chosen = all.find((c) => c.clientId === search.get('client')) ?? all[0];

  if (!user) return <PageLoading />;
  const h = (key: string) => <Typography.Title level={5}>{t(`clients.${key}` as 'clients.dev_endpoints')}</Typography.Title>;

  return (
    <Card title={t('clients.dev_title')} data-testid="developer-page">
      <Typography.Paragraph className="developer__intro">{t('clients.dev_intro')}</Typography.Paragraph>

      <section className="developer__section" aria-labelledby="dev-discovery">
        <Typography.Title level={4} id="dev-discovery">
          {t('clients.dev_discovery')}
        </Typography.Title>
        <CopyBlock text={discoveryUrl(endpoints.issuer)} label={t('clients.dev_discovery')} testId="dev-discovery" />
        <Typography.Paragraph type="secondary" className="developer__hint">
          {t('clients.dev_discovery_hint')}
        </Typography.Paragraph>
        <Typography.Title level={5}>{t('clients.dev_endpoints')}</Typography.Title>
        {/* label above value on a phone, side by side from 576 px (developer.css) */}
        <dl className="developer__endpoints">
          {[['issuer', 'dev_issuer'] as const, ...ENDPOINTS].map(([key, label]) => (
            <div key={key} className="developer__endpoint">
              <dt>{t(`clients.${label}` as 'clients.ep_token')}</dt>
              <dd>
                <CopyBlock text={endpoints[key]} label={t(`clients.${label}` as 'clients.ep_token')} testId={`dev-${key}`} />
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="developer__section" aria-labelledby="dev-client">
        <Typography.Title level={4} id="dev-client">
          {t('clients.dev_client')}
        </Typography.Title>
        {clients.isSuccess && all.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              <span>
                {t('clients.dev_no_clients')} <Link to="/user/client">{t('clients.dev_manage_clients')}</Link>
              </span>
            }
          />
        ) : (
          <div className="developer__client">
            <Select
              className="developer__client-select"
              aria-label={t('clients.dev_choose_client')}
              placeholder={t('clients.dev_choose_client')}
              loading={clients.isFetching}
              value={chosen?.clientId}
              onChange={(id: string) => setSearch((prev) => new URLSearchParams({ ...Object.fromEntries(prev), client: id }), { replace: true })}
              options={all.map((c) => ({ value: c.clientId, label: <span dir="auto">{`${c.name} (${c.clientId})`}</span> }))}
              popupMatchSelectWidth={false}
              data-testid="dev-client-select"
            />
            <Link to="/user/client">{t('clients.dev_manage_clients')}</Link>
          </div>
        )}
      </section>

      {chosen && (
        <section className="developer__section" aria-labelledby="dev-samples">
          <Typography.Title level={4} id="dev-samples">
            {t('clients.dev_samples')}
          </Typography.Title>
          <Alert type="info" showIcon className="developer__hint" title={t('clients.dev_samples_hint')} />
          <Samples endpoints={endpoints} client={chosen} heading={h} />
        </section>
      )}
    </Card>
  );
}

function Samples({ endpoints, client, heading }: { endpoints: Endpoints; client: ClientListItem; heading: (key: string) => React.ReactNode }) {
  const { t } = useTranslation();
  const scopes = ['openid', 'profile', ...(client.grantTypes.includes('refresh_token') ? ['offline_access'] : [])];
  const s = buildSamples(endpoints, { ...client, scopes });
  const block = (key: string, text: string | undefined) => (
    <div className="developer__sample" key={key}>
      {heading(key)}
      {text ? (
        <CopyBlock text={text} label={t(`clients.${key}` as 'clients.sample_code')} multiline testId={`dev-${key}`} />
      ) : (
        <Typography.Paragraph type="secondary">{t('clients.sample_grant_off')}</Typography.Paragraph>
      )}
    </div>
  );
  const codeFlow = client.grantTypes.includes('authorization_code');
  return (
    <>
      {block('sample_pkce', codeFlow ? s.pkce : undefined)}
      {block('sample_authorize', codeFlow ? s.authorize : undefined)}
      {block('sample_code', codeFlow ? s.code : undefined)}
      {block('sample_refresh', s.refresh)}
      {block('sample_client_credentials', s.clientCredentials)}
      {block('sample_device', s.device)}
      {block('sample_userinfo', s.userinfo)}
    </>
  );
}
