/**
 * Dashboard workplace (/dashboard/workplace): the administrator's shortcuts — the domain pages
 * their permissions open (the server decides the same on every call) — and the latest audit
 * events of the domains whose trail they may read.
 */
import { can } from '@umbo/contracts/permissions';
import { SIGNED_IN_ROUTES } from '@umbo/contracts/routes';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import List from 'antd/es/list';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoading } from '../../../components/page-loading';
import { actionLabel } from '../../../lib/audit-labels';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useWorkplace } from '../api/get-dashboard';
import '../components/dashboard.css';

export default function WorkplacePage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: user } = useCurrentUser();
  const { data, error, isPending } = useWorkplace();
  if (!user) return <PageLoading />;

  const shortcuts = SIGNED_IN_ROUTES.filter((r) => r.area === 'domain' && r.menu !== 'group_dashboard' && r.permission && can(user, r.permission, 'query'));
  const auditPage = SIGNED_IN_ROUTES.find((r) => r.name === 'audit');

  return (
    <div className="workplace" data-testid="workplace-page">
      <Card title={t('dashboard.welcome', { name: user.name })} className="dashboard__note">
        <h2 className="workplace__heading">{t('dashboard.shortcuts')}</h2>
        {shortcuts.length === 0 ? (
          <p>{t('dashboard.no_shortcuts')}</p>
        ) : (
          <nav className="workplace__shortcuts" aria-label={t('dashboard.shortcuts')}>
            {shortcuts.map((r) => (
              <Link key={r.name} to={r.path} className="workplace__shortcut" data-testid={`shortcut-${r.name}`}>
                <Card size="small" hoverable>
                  {t(`menu.${r.title}`)}
                </Card>
              </Link>
            ))}
          </nav>
        )}
      </Card>
      <Card
        title={t('dashboard.latest')}
        extra={auditPage && can(user, 'audit', 'query') && <Link to={auditPage.path}>{t('dashboard.open_audit')}</Link>}
        data-testid="workplace-latest"
      >
        {error && <Alert type="error" showIcon title={t('dashboard.load_failed')} description={error.message} />}
        {!error && !isPending && data?.latest.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.latest_empty')} />}
        {data && data.latest.length > 0 && (
          <List
            loading={isPending}
            dataSource={data.latest}
            rowKey="id"
            renderItem={(e) => (
              <List.Item data-testid="workplace-event">
                <List.Item.Meta
                  title={
                    <span>
                      {actionLabel(t, e.action)}{' '}
                      <Tag color={e.result === 'ok' ? undefined : 'error'}>{e.result === 'ok' ? t('audit.result_ok') : t('audit.result_fail')}</Tag>
                    </span>
                  }
                  description={
                    <span className="workplace__event-meta">
                      <time dateTime={new Date(e.at).toISOString()}>{format.dateTime(e.at)}</time>
                      {' · '}
                      <span dir="auto">{t('audit.by', { name: e.actor ? e.actor.name || e.actor.id : t('audit.anonymous') })}</span>
                      {e.target && (
                        <>
                          {' '}
                          <span dir="auto">{t('audit.on', { name: e.target.name || e.target.id || '' })}</span>
                        </>
                      )}
                      {' · '}
                      {e.realmId}
                    </span>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Card>
    </div>
  );
}
