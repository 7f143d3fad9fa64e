/** One figure with its name, for the dashboard's rows of figures. */
import Card from 'antd/es/card';
import type { ReactNode } from 'react';

export function StatCard({ label, value, note, testId }: { label: string; value: ReactNode; note?: ReactNode; testId?: string }) {
  return (
    <Card size="small" className="dashboard__stat" data-testid={testId}>
      <div className="dashboard__stat-label">{label}</div>
      <div className="dashboard__stat-value">{value}</div>
      {note && <div className="dashboard__stat-note">{note}</div>}
    </Card>
  );
}
