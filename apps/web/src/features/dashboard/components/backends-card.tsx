/**
 * The IT-interface backends on the monitor page (issue 14): each domain backend's circuit
 * breaker as this server process sees it (closed: working; open: sign-ins answer "Connect it
 * error" at once; half-open: one trial call goes through). Per process by design.
 */
import type { MonitorResult } from '@umbo/contracts/dashboard';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';

type Backend = MonitorResult['backends'][number];

const COLOR: Record<Backend['state'], string | undefined> = { closed: 'success', open: 'error', half_open: 'warning' };

export function BackendsCard({ backends }: { backends: Backend[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Card size="small" title={t('dashboard.backends_title')} className="dashboard__note" data-testid="monitor-backends">
      <p className="dashboard__note">{t('dashboard.backends_note')}</p>
      {backends.length > 0 ? (
        <Table
          size="small"
          rowKey="realmId"
          pagination={false}
          dataSource={backends}
          columns={[
            { title: t('dashboard.backends_realm'), dataIndex: 'realmId', render: (v: string, r) => `${v} (${r.type})` },
            {
              title: t('dashboard.backends_state'),
              dataIndex: 'state',
              render: (v: Backend['state']) => <Tag color={COLOR[v]}>{t(`dashboard.backends_state_${v}`)}</Tag>,
            },
            { title: t('dashboard.backends_failures'), dataIndex: 'consecutiveFailures', render: (v: number) => format.number(v) },
            {
              title: t('dashboard.backends_last'),
              dataIndex: 'lastFailure',
              render: (v: string | null, r) => (v ? `${v}${r.lastFailureAt ? ` · ${format.dateTime(r.lastFailureAt)}` : ''}` : '—'),
            },
          ]}
        />
      ) : (
        <p>{t('dashboard.backends_empty')}</p>
      )}
    </Card>
  );
}
