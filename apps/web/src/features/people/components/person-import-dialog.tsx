/**
 * CSV import (issue 11): choose a file, the server checks it (dry run) and answers a row-level
 * report; only a file without problems can be imported, all rows or none, after the user
 * confirms. A file the server cannot read at all is said in one line.
 */
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import type { PersonImportReport, PersonImportRowError } from '@umbo/contracts/people';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-error';
import { showInfo } from '../../../lib/feedback';
import { IMPORT_MAX_BYTES, useImportPersons } from '../api/person-import';

/** The component's `t`, narrowed to what this file asks of it (i18next's own type is too deep to pass around). */
type Translate = (key: `people.person.${string}`, options?: Record<string, unknown>) => string;

/** What the server said about a file it could not read (1040 with errData.reason). */
function fileProblem(t: Translate, err: unknown): string | undefined {
  if (!(err instanceof ApiError) || err.code !== 1040) return undefined;
  const d = (err.errData ?? {}) as { reason?: string; columns?: string[]; line?: number; max?: number };
  const columns = (d.columns ?? []).join(', ');
  switch (d.reason) {
    case 'encoding':
      return t('people.person.file_encoding');
    case 'missing_columns':
      return t('people.person.file_missing_columns', { columns });
    case 'unknown_columns':
      return t('people.person.file_unknown_columns', { columns });
    case 'malformed':
      return t('people.person.file_malformed', { line: d.line ?? 0 });
    case 'too_many_rows':
      return t('people.person.file_too_many_rows', { max: d.max ?? 0 });
    default:
      return t('people.person.file_empty');
  }
}

export function PersonImportDialog({ realmId, onClose }: { realmId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | undefined>();
  const [report, setReport] = useState<PersonImportReport | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const run = useImportPersons(realmId);
  const say: Translate = (key, options) => String(t(key as 'people.person.file_empty', options as never));

  const check = (chosen: File) => {
    setFile(chosen);
    setReport(undefined);
    setProblem(undefined);
    if (chosen.size > IMPORT_MAX_BYTES) return setProblem(t('people.person.import_too_large'));
    run.mutate({ file: chosen, dryRun: true }, { onSuccess: setReport, onError: (err) => setProblem(fileProblem(say, err)) });
  };

  const confirmImport = () =>
    file &&
    run.mutate(
      { file, dryRun: false },
      {
        onSuccess: (r) => {
          showInfo((say) => say('people.person.import_done', { count: r.created }));
          onClose();
        },
        // Someone changed the realm since the check: show the new report.
        onError: (err) => {
          if (err instanceof ApiError && err.code === 1041) setReport(err.errData as PersonImportReport);
          else setProblem(fileProblem(say, err));
        },
      },
    );

  const errorText = (e: PersonImportRowError) => t(`people.person.err_${e.error}`, { row: e.firstRow ?? 0 });
  const ready = report && report.errorCount === 0 && report.valid > 0;

  return (
    <Modal
      open
      width={720}
      title={t('people.person.import_title')}
      onCancel={onClose}
      okText={t('people.person.import_confirm', { count: report?.valid ?? 0 })}
      okButtonProps={{ disabled: !ready, ...({ 'data-testid': 'person-import-confirm' } as object) }}
      onOk={confirmImport}
      confirmLoading={run.isPending && Boolean(report)}
      destroyOnHidden
      data-testid="person-import-dialog"
    >
      <Alert type="info" showIcon title={t('people.person.import_hint')} />
      <div className="person-import__summary">
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          hidden
          data-testid="person-import-file"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            if (chosen) check(chosen);
            e.target.value = '';
          }}
        />
        <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} loading={run.isPending && !report}>
          {t('people.person.import_choose')}
        </Button>{' '}
        {file && <span dir="auto">{t('people.person.import_file', { name: file.name })}</span>}
      </div>
      {problem && <Alert className="person-import__errors" type="error" showIcon title={problem} data-testid="person-import-problem" />}
      {report && (
        <div className="person-import__summary" data-testid="person-import-report">
          <Alert
            type={report.errorCount ? 'warning' : 'success'}
            showIcon
            title={t('people.person.import_summary', { rows: report.rows, valid: report.valid })}
            description={report.errorCount ? t('people.person.import_problems', { count: report.errorCount }) : undefined}
          />
          {report.errors.length > 0 && (
            <Table<PersonImportRowError>
              className="person-import__errors"
              size="small"
              rowKey={(e) => `${e.row}-${e.field}-${e.error}`}
              dataSource={report.errors}
              pagination={report.errors.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
              onRow={() => ({ 'data-testid': 'person-import-error' }) as object}
              columns={[
                // No sideways scrolling, even at 390 px: the four short columns wrap instead.
                { key: 'row', dataIndex: 'row', title: t('people.person.import_row') },
                { key: 'line', dataIndex: 'line', title: t('people.person.import_line') },
                { key: 'field', dataIndex: 'field', title: t('people.person.import_field'), render: (f: string) => <span dir="ltr">{f}</span> },
                { key: 'error', title: t('people.person.import_error'), render: (_: unknown, e: PersonImportRowError) => errorText(e) },
              ]}
            />
          )}
          {report.errorCount > report.errors.length && (
            <p className="person-import__summary">{t('people.person.import_more_problems', { shown: report.errors.length, count: report.errorCount })}</p>
          )}
        </div>
      )}
    </Modal>
  );
}
