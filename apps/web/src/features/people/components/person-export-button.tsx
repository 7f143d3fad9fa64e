/**
 * CSV export of the current filter (issue 11): the download is read as it streams, the button
 * counting the rows received so far, and saved as a file once complete.
 */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import Button from 'antd/es/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { exportPersons } from '../api/person-export';
import type { PersonFilter } from '../api/person-list';

export function PersonExportButton({ realmId, filter }: { realmId: string; filter: PersonFilter }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<number | undefined>();
  const run = async () => {
    setRows(0);
    try {
      const count = await exportPersons(realmId, filter, setRows);
      showInfo((say) => say('people.person.export_done', { count }));
    } catch {
      // the API client has said what went wrong
    } finally {
      setRows(undefined);
    }
  };
  const busy = rows !== undefined;
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void run()} data-testid="person-export">
      <span aria-live="polite">{busy ? t('people.person.export_progress', { count: rows }) : t('people.person.export')}</span>
    </Button>
  );
}
