/**
 * The data centre event queue on the monitor page (issue 14): waiting and failing events of
 * the domains that report to a data centre, the oldest one's age and the latest failure's
 * reason, per domain. The figures live in the database, so every server process shows the same.
 */
import type { MonitorResult } from '@umbo/contracts/dashboard';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { StatCard } from './stat-card';

type Queue = MonitorResult['queue'];

export function QueueCard({ queue }: { queue: Queue }) {
  const { t } = useTranslation();
  const format = useFormat();
  const age = (seconds: number | null) =>
    seconds === null
      ? '—'
      : seconds < 120
        ? format.number(seconds, { style: 'unit', unit: 'second', unitDisplay: 'long' })
        : seconds < 7200
          ? format.number(Math.floor(seconds / 60), { style: 'unit', unit: 'minute', unitDisplay: 'long' })
          : format.number(seconds / 3600, { style: 'unit', unit: 'hour', unitDisplay: 'long', maximumFractionDigits: 1 });

  return (
    <Card size="small" title={t('dashboard.queue_title')} className="dashboard__note" data-testid="monitor-queue">
      <p className="dashboard__note">{t('dashboard.queue_note')}</p>
      <div className="dashboard__stats">
        <StatCard label={t('dashboard.queue_pending')} value={format.number(queue.pending)} testId="stat-queue-pending" />
        <StatCard
          label={t('dashboard.queue_failing')}
          value={queue.failing > 0 ? <Tag color="error">{format.number(queue.failing)}</Tag> : format.number(0)}
          testId="stat-queue-failing"
        />
        <StatCard label={t('dashboard.queue_oldest')} value={age(queue.oldestAgeSeconds)} />
      </div>
      {queue.realms.length > 0 ? (
        <Table
          size="small"
          rowKey="realmId"
          pagination={false}
          dataSource={queue.realms}
          columns={[
            { title: t('dashboard.queue_realm'), dataIndex: 'realmId' },
            { title: t('dashboard.queue_pending'), dataIndex: 'pending', render: (v: number) => format.number(v) },
            { title: t('dashboard.queue_failing'), dataIndex: 'failing', render: (v: number) => format.number(v) },
            { title: t('dashboard.queue_oldest'), dataIndex: 'oldestAgeSeconds', render: (v: number) => age(v) },
            {
              title: t('dashboard.queue_last_error'),
              dataIndex: 'lastError',
              render: (v: string | null, r) => (v ? `${v}${r.lastErrorAt ? ` · ${format.dateTime(r.lastErrorAt)}` : ''}` : '—'),
            },
          ]}
        />
      ) : (
        <p>{t('dashboard.queue_empty')}</p>
      )}
    </Card>
  );
}
