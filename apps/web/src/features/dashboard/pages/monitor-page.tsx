/**
 * Dashboard monitor (/dashboard/monitor): this server process's request rate, error rates and
 * latency percentiles over the last minute, a five-minute series, and the health of the
 * database and Redis — refreshed every 5 seconds. Platform figures, shown to administrators
 * of the master domain (the server refuses anyone else; the page says so instead of asking).
 */
import { can } from '@umbo/contracts/permissions';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Tag from 'antd/es/tag';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { useFormat } from '../../../lib/format';
import { useLocaleState } from '../../../lib/i18n';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useMonitor } from '../api/get-dashboard';
import { CHART_COLORS, LineChart, type ChartSeries } from '../components/line-chart';
import { StatCard } from '../components/stat-card';
import { QueueCard } from '../components/queue-card';
import { BackendsCard } from '../components/backends-card';
import '../components/dashboard.css';

export default function MonitorPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { tag } = useLocaleState();
  const { data: user } = useCurrentUser();
  const platform = Boolean(user && user.realmId === 'master' && can(user, 'dashboard', 'query'));
  const { data, error } = useMonitor(platform);

  const ms = (v: number | null | undefined) =>
    v === null || v === undefined ? '—' : format.number(v, { style: 'unit', unit: 'millisecond', maximumFractionDigits: 1 });
  const pct = (v: number) => format.number(v, { style: 'percent', maximumFractionDigits: 2 });
  const uptime = (seconds: number) =>
    seconds < 3600
      ? format.number(Math.floor(seconds / 60), { style: 'unit', unit: 'minute', unitDisplay: 'long' })
      : seconds < 172_800
        ? format.number(seconds / 3600, { style: 'unit', unit: 'hour', unitDisplay: 'long', maximumFractionDigits: 1 })
        : format.number(seconds / 86_400, { style: 'unit', unit: 'day', unitDisplay: 'long', maximumFractionDigits: 1 });
  const mb = (bytes: number) => format.number(bytes / 1_048_576, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 0 });

  const labels = useMemo(() => {
    const f = new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    return (data?.series ?? []).map((p) => f.format(p.at));
  }, [data, tag]);
  const requests = useMemo(
    (): ChartSeries[] => [
      { label: t('dashboard.requests'), values: (data?.series ?? []).map((p) => p.requests), color: CHART_COLORS[0]! },
      { label: t('dashboard.errors'), values: (data?.series ?? []).map((p) => p.errors), color: CHART_COLORS[4]!, dashed: true },
    ],
    [data, t],
  );
  const latency = useMemo(
    (): ChartSeries[] => [{ label: t('dashboard.p95'), values: (data?.series ?? []).map((p) => p.p95), color: CHART_COLORS[3]! }],
    [data, t],
  );

  if (!user) return <PageLoading />;
  if (!platform) {
    return (
      <Card title={t('dashboard.monitor_title')} data-testid="monitor-page">
        <Alert type="info" showIcon title={t('dashboard.monitor_platform_only')} />
      </Card>
    );
  }

  const health = (probe: { ok: boolean; latencyMs: number | null } | null | undefined, testId: string, label: string) => (
    <StatCard
      label={label}
      testId={testId}
      value={
        probe === null ? (
          <Tag>{t('dashboard.not_configured')}</Tag>
        ) : probe ? (
          <Tag color={probe.ok ? undefined : 'error'}>{probe.ok ? t('dashboard.healthy') : t('dashboard.unhealthy')}</Tag>
        ) : (
          '—'
        )
      }
      note={probe?.latencyMs !== undefined && probe?.latencyMs !== null ? t('dashboard.latency', { value: ms(probe.latencyMs) }) : undefined}
    />
  );

  return (
    <Card
      title={t('dashboard.monitor_title')}
      data-testid="monitor-page"
      extra={data && <span aria-live="polite">{t('dashboard.updated', { time: format.dateTime(data.at) })}</span>}
    >
      <p className="dashboard__note">
        {t('dashboard.last_minute')} · {t('dashboard.auto_refresh')}
      </p>
      {error && <Alert type="error" showIcon title={t('dashboard.load_failed')} description={error.message} className="dashboard__note" />}
      {data && (
        <>
          <div className="dashboard__stats" data-testid="monitor-stats">
            <StatCard label={t('dashboard.rps')} value={format.number(data.window.perSecond, { maximumFractionDigits: 2 })} testId="stat-rps" />
            <StatCard label={t('dashboard.error_rate')} value={pct(data.window.errorRate)} testId="stat-errors" />
            <StatCard label={t('dashboard.client_error_rate')} value={pct(data.window.clientErrorRate)} />
            <StatCard label={t('dashboard.p50')} value={ms(data.window.p50)} testId="stat-p50" />
            <StatCard label={t('dashboard.p95')} value={ms(data.window.p95)} />
            <StatCard label={t('dashboard.p99')} value={ms(data.window.p99)} />
            {health(data.database, 'stat-database', `${t('dashboard.database')} (${data.database.dialect})`)}
            {health(data.redis, 'stat-redis', t('dashboard.redis'))}
            <StatCard label={t('dashboard.uptime')} value={uptime(data.uptimeSeconds)} />
            <StatCard label={t('dashboard.memory')} value={mb(data.memory.rssBytes)} />
          </div>
          <QueueCard queue={data.queue} />
          <BackendsCard backends={data.backends} />
          <div className="dashboard__charts">
            <LineChart
              title={t('dashboard.chart_requests')}
              labelHeading={t('dashboard.time')}
              labels={labels}
              series={requests}
              format={(v) => format.number(v)}
              integer
              testId="chart-requests"
            />
            <LineChart
              title={t('dashboard.chart_latency')}
              labelHeading={t('dashboard.time')}
              labels={labels}
              series={latency}
              format={(v) => format.number(v, { maximumFractionDigits: 1 })}
              testId="chart-latency"
            />
          </div>
        </>
      )}
    </Card>
  );
}
