/**
 * Import a domain export: choose the file (and optionally another domain id), check it (the
 * server's dry run: what would be created or replaced, nothing written), then import.
 */
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import { realmExport, zRealmId, type RealmExport, type RealmImportReport } from '@umbo/contracts/realms';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkField } from '../../../lib/form-rules';
import { showInfo } from '../../../lib/feedback';
import { useImportRealm } from '../api/realm-transfer';

export function ImportRealmDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const file = useRef<HTMLInputElement>(null);
  const [doc, setDoc] = useState<RealmExport>();
  const [fileName, setFileName] = useState('');
  const [target, setTarget] = useState('');
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [report, setReport] = useState<RealmImportReport>();
  const [problem, setProblem] = useState<string>();
  const run = useImportRealm();

  const reset = () => {
    setDoc(undefined);
    setFileName('');
    setTarget('');
    setSecrets({});
    setReport(undefined);
    setProblem(undefined);
  };
  const close = () => {
    reset();
    onClose();
  };
  async function chosen(f: File | undefined) {
    reset();
    if (!f) return;
    setFileName(f.name);
    try {
      const parsed = realmExport.safeParse(JSON.parse(await f.text()));
      if (parsed.success) setDoc(parsed.data);
      else setProblem(t('domains.import_bad_file'));
    } catch {
      setProblem(t('domains.import_bad_file'));
    }
  }
  const send = (dryRun: boolean) => {
    if (!doc) return;
    const bad = target ? checkField(zRealmId, target, t) : undefined;
    setProblem(bad);
    if (bad) return;
    const body = { document: doc, ...(target ? { targetRealmId: target } : {}), ...(Object.keys(secrets).length ? { secrets } : {}) };
    run.mutate(
      { body, dryRun },
      {
        onSuccess: (r) => {
          if (r.dryRun) setReport(r);
          else {
            showInfo(() => t('domains.import_done', { realm: r.realmId }));
            close();
          }
        },
        onError: (e) => setProblem(e.message),
      },
    );
  };

  return (
    <Modal open={open} title={t('domains.import_title')} onCancel={close} footer={null} destroyOnHidden>
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <div>
          <Typography.Text id="import-file-label">{t('domains.import_file')}</Typography.Text>
          <div style={{ marginTop: 4 }}>
            <input
              ref={file}
              id="import-file"
              type="file"
              accept="application/json,.json"
              aria-labelledby="import-file-label"
              style={{ display: 'none' }}
              onChange={(e) => void chosen(e.target.files?.[0])}
            />
            <Button onClick={() => file.current?.click()}>{t('domains.import_choose')}</Button> <span dir="auto">{fileName}</span>
          </div>
        </div>
        <label htmlFor="import-target">{t('domains.import_target')}</label>
        <Input
          id="import-target"
          dir="ltr"
          value={target}
          placeholder={doc?.realm.realmId}
          onChange={(e) => {
            setTarget(e.target.value);
            setReport(undefined);
          }}
        />
        {problem && <Alert type="error" showIcon title={problem} role="alert" />}
        {report && (
          <Alert
            type="info"
            data-testid="import-report"
            title={t('domains.import_report')}
            description={
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                <li>{t(report.realm === 'create' ? 'domains.import_realm_create' : 'domains.import_realm_replace', { realm: report.realmId })}</li>
                <li>{t('domains.import_roles', { create: report.roles.create.length, replace: report.roles.replace.length })}</li>
                <li>{t('domains.import_accounts', { create: report.accounts.create, replace: report.accounts.replace })}</li>
                {report.secretsToEnterAgain.length > 0 && (
                  <li>
                    {t('domains.import_secrets')}
                    {report.secretsToEnterAgain.map((path) => (
                      <Input.Password
                        key={path}
                        aria-label={path}
                        placeholder={path}
                        style={{ marginTop: 4 }}
                        onChange={(e) => setSecrets((s) => ({ ...s, [path]: e.target.value }))}
                      />
                    ))}
                  </li>
                )}
              </ul>
            }
          />
        )}
        <Space>
          <Button onClick={() => send(true)} disabled={!doc} loading={run.isPending && !report} data-testid="import-check">
            {t('domains.import_dry_run')}
          </Button>
          <Button type="primary" onClick={() => send(false)} disabled={!report} loading={run.isPending && Boolean(report)} data-testid="import-confirm">
            {t('domains.import_confirm')}
          </Button>
        </Space>
      </Space>
    </Modal>
  );
}
