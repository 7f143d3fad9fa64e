/**
 * Dashboard analysis (/dashboard/analysis, dashboard.query): sign-ins per day by method and
 * result, registrations, active accounts, locks and failures over 7 / 30 / 90 days, for one
 * domain or — administrators of master — all of them. Real figures from the audit trail.
 */
import { ANALYSIS_PERIODS, SIGN_IN_METHODS, type AnalysisDay } from '@umbo/contracts/dashboard';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Segmented from 'antd/es/segmented';
import Spin from 'antd/es/spin';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { isPlatformAdmin, RealmSelect } from '../../../components/realm-select';
import { useFormat } from '../../../lib/format';
import { useLocaleState } from '../../../lib/i18n';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { useAnalysis } from '../api/get-dashboard';
import { CHART_COLORS, LineChart, type ChartSeries } from '../components/line-chart';
import { CertExpiryCard } from '../components/cert-expiry-card';
import { StatCard } from '../components/stat-card';
import '../components/dashboard.css';

type Param = 'realm' | 'days';
const SPEC: ListSpec<Param> = { filters: ['realm', 'days'] };

export default function AnalysisPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: user } = useCurrentUser();
  const list = useListParams(SPEC);
  const realmId = list.filters.realm ?? user?.realmId ?? '';
  const days = (ANALYSIS_PERIODS as readonly number[]).includes(Number(list.filters.days)) ? Number(list.filters.days) : 7;
  const { data, error, isFetching } = useAnalysis(realmId, days);
  const { tag } = useLocaleState();

  // Dates as the reader writes them; the API's dates are already the reader's calendar days.
  const labels = useMemo(() => {
    const f = new Intl.DateTimeFormat(tag, { month: '2-digit', day: '2-digit', timeZone: 'UTC' });
    return (data?.series ?? []).map((d) => f.format(Date.parse(d.date)));
  }, [data, tag]);
  const n = (v: number) => format.number(v);

  const signIns = useMemo((): ChartSeries[] => {
    const s = data?.series ?? [];
    const method = (m: (typeof SIGN_IN_METHODS)[number], i: number): ChartSeries => ({
      label: t(`dashboard.method_${m}`),
      values: s.map((d) => d.signIns[m].ok),
      // CHART_COLORS[4] is the failures' red: the fifth method takes the next colour
      color: CHART_COLORS[i < 4 ? i : i + 1]!,
    });
    return [...SIGN_IN_METHODS.map(method), { label: t('dashboard.failures'), values: s.map((d) => d.failures), color: CHART_COLORS[4]!, dashed: true }];
  }, [data, t]);

  const activity = useMemo((): ChartSeries[] => {
    const s = data?.series ?? [];
    const of = (f: (d: AnalysisDay) => number) => s.map(f);
    return [
      { label: t('dashboard.active'), values: of((d) => d.active), color: CHART_COLORS[0]! },
      { label: t('dashboard.registrations'), values: of((d) => d.registrations), color: CHART_COLORS[1]! },
      { label: t('dashboard.locks'), values: of((d) => d.locks), color: CHART_COLORS[4]!, dashed: true },
    ];
  }, [data, t]);

  if (!user) return <PageLoading />;
  const totals = data?.totals;

  return (
    <Card title={t('dashboard.analysis_title')} data-testid="analysis-page">
      <div className="dashboard__controls">
        <span>
          <label htmlFor="analysis-realm">{t('dashboard.realm')}</label>
          <RealmSelect
            id="analysis-realm"
            className="dashboard__realm-select"
            user={user}
            value={realmId}
            allowAll={isPlatformAdmin(user)}
            onChange={(realm) => list.change({ filters: { realm } })}
          />
        </span>
        <Segmented
          aria-label={t('dashboard.period')}
          value={days}
          onChange={(v) => list.change({ filters: { days: String(v) } })}
          options={ANALYSIS_PERIODS.map((d) => ({ value: d, label: t(`dashboard.last_${d}`) }))}
        />
        {isFetching && <Spin size="small" />}
      </div>
      {error && <Alert type="error" showIcon title={t('dashboard.load_failed')} description={error.message} className="dashboard__note" />}
      {totals && (
        <div className="dashboard__stats" data-testid="analysis-totals">
          <StatCard label={t('dashboard.signins_ok')} value={n(totals.signInsOk)} testId="stat-signins-ok" />
          <StatCard label={t('dashboard.signins_fail')} value={n(totals.signInsFail)} testId="stat-signins-fail" />
          <StatCard label={t('dashboard.active')} value={n(totals.active)} testId="stat-active" />
          <StatCard label={t('dashboard.registrations')} value={n(totals.registrations)} testId="stat-registrations" />
          <StatCard label={t('dashboard.locks')} value={n(totals.locks)} testId="stat-locks" />
          <StatCard label={t('dashboard.failures')} value={n(totals.failures)} testId="stat-failures" />
        </div>
      )}
      <CertExpiryCard user={user} realmId={realmId} />
      {data && (
        <div className="dashboard__charts">
          <LineChart
            title={t('dashboard.chart_signins')}
            labelHeading={t('dashboard.date')}
            labels={labels}
            series={signIns}
            format={n}
            integer
            testId="chart-signins"
          />
          <LineChart
            title={t('dashboard.chart_activity')}
            labelHeading={t('dashboard.date')}
            labels={labels}
            series={activity}
            format={n}
            integer
            testId="chart-activity"
          />
        </div>
      )}
    </Card>
  );
}
