/**
 * Which screen each console route shows. Every screen is its own lazy chunk; screens that
 * later issues build share the honest "not available yet" page.
 */
import type { ConsoleRoute } from '@umbo/contracts/routes';
import type { ReactElement } from 'react';
import { PageLoading } from '../components/page-loading';
// Part of the first load: the sign-in page is where most visits start, and it is small.
import LoginPage from '../features/auth/pages/login-page';
import { ExceptionPage } from './exception-screen';
import { lazyScreen } from './lazy-screen';

const CenterPage = lazyScreen(() => import('../features/me/pages/center-page'));
const SecurityPage = lazyScreen(() => import('../features/me/pages/security-page'));
const OutboxPage = lazyScreen(() => import('../features/outbox/pages/outbox-page'));
const RegisterPage = lazyScreen(() => import('../features/auth/pages/register-page'));
const RegisterResultPage = lazyScreen(() => import('../features/auth/pages/register-result-page'));
const RetrievePage = lazyScreen(() => import('../features/auth/pages/retrieve-page'));
const ResetPage = lazyScreen(() => import('../features/auth/pages/reset-page'));
const FTokenPage = lazyScreen(() => import('../features/auth/pages/ftoken-page'));
const UserRedirectAuthcodePage = lazyScreen(() => import('../features/auth/pages/user-redirect-authcode-page'));
const ConsentPage = lazyScreen(() => import('../features/auth/pages/consent-page'));
const NotAvailablePage = lazyScreen(() => import('../components/not-available-page'));
const DomainPage = lazyScreen(() => import('../features/domains/pages/domain-page'));
const PersonPage = lazyScreen(() => import('../features/people/pages/person-page'));
const ServicePage = lazyScreen(() => import('../features/people/pages/service-page'));
const RolePage = lazyScreen(() => import('../features/roles/pages/role-page'));
const AuditPage = lazyScreen(() => import('../features/audit/pages/audit-page'));
const AnalysisPage = lazyScreen(() => import('../features/dashboard/pages/analysis-page'));
const MonitorPage = lazyScreen(() => import('../features/dashboard/pages/monitor-page'));
const WorkplacePage = lazyScreen(() => import('../features/dashboard/pages/workplace-page'));
const ClientPage = lazyScreen(() => import('../features/clients/pages/client-page'));
const UserClientPage = lazyScreen(() => import('../features/clients/pages/user-client-page'));
const OAuthListPage = lazyScreen(() => import('../features/oauth-records/pages/oauth-list-page'));
const MyOAuthPage = lazyScreen(() => import('../features/oauth-records/pages/my-oauth-page'));
const DeveloperPage = lazyScreen(() => import('../features/developer/pages/developer-page'));
const DevicePage = lazyScreen(() => import('../features/device/pages/device-page'));
const KeysPage = lazyScreen(() => import('../features/cert/pages/keys-page'));
const CertListPage = lazyScreen(() => import('../features/cert/pages/cert-list-page'));
const CertRecordPage = lazyScreen(() => import('../features/cert/pages/cert-record-page'));
const ToolsPage = lazyScreen(() => import('../features/cert/pages/tools-page'));
const DomainCertPage = lazyScreen(() => import('../features/cert/pages/domain-cert-page'));

export const RichProviders = lazyScreen(() => import('./rich-providers'), <PageLoading full />);
export const BasicLayout = lazyScreen(() => import('./shell/basic-layout'), <PageLoading full />);

/** Public screens built from plain HTML, shown without antd's providers. */
export const LIGHT_PUBLIC = new Set([
  'loginSSO',
  'login',
  'register',
  'registry',
  'registerResult',
  'retrieve',
  'reset',
  'loginByFToken',
  'consent',
  'userRedirectAuthcode',
]);

export function screenFor(route: ConsoleRoute): ReactElement {
  switch (route.name) {
    case 'loginSSO':
    case 'login':
      return <LoginPage />;
    case 'register':
    case 'registry':
      return <RegisterPage />;
    case 'registerResult':
      return <RegisterResultPage />;
    case 'retrieve':
      return <RetrievePage />;
    case 'reset':
      return <ResetPage />;
    case 'loginByFToken':
      return <FTokenPage />;
    case 'userRedirectAuthcode':
      return <UserRedirectAuthcodePage />;
    case 'consent':
      return <ConsentPage />;
    case '403':
    case '404':
    case '500':
      return <ExceptionPage status={route.name} />;
    case 'center':
      return <CenterPage />;
    case 'security':
      return <SecurityPage />;
    case 'outbox':
      return <OutboxPage />;
    case 'domain':
      return <DomainPage />;
    case 'person':
      return <PersonPage />;
    case 'service':
    case 'userService':
      return <ServicePage />;
    case 'role':
      return <RolePage />;
    case 'audit':
      return <AuditPage />;
    case 'analysis':
      return <AnalysisPage />;
    case 'monitor':
      return <MonitorPage />;
    case 'workplace':
      return <WorkplacePage />;
    case 'client':
      return <ClientPage />;
    case 'userClient':
      return <UserClientPage />;
    case 'oauthList':
      return <OAuthListPage />;
    case 'myOAuth':
      return <MyOAuthPage />;
    case 'developer':
      return <DeveloperPage />;
    case 'device':
      return <DevicePage />;
    case 'keys':
      return <KeysPage />;
    case 'certList':
      return <CertListPage />;
    case 'certRecord':
      return <CertRecordPage />;
    case 'tools':
      return <ToolsPage />;
    case 'domainCert':
      return <DomainCertPage />;
    default:
      return <NotAvailablePage />;
  }
}
